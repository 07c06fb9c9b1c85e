import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TPlanificationsResponse } from '@synchro/contracts';
import { zoneOffsetMinutes } from '@synchro/contracts/time';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { TIME_OPTIONS, timeZonePayload, toPlanningForm } from './planning-form.ts';
import { formatOffsetValue, parseOffset, TIME_ZONES, timeZoneOptions } from './time-zones.ts';

const NO_INFO = { exe: '', serial: '' };

afterEach(() => {
  vi.unstubAllGlobals();
});

const view: TPlanificationsResponse = {
  version: 7,
  data: {
    timeZone: 'Indian/Reunion',
    timeZoneOffset: '+04:00',
    plannings: [
      { day: 1, time: '08:00', type: 'C' },
      { day: 8, time: '12:30', type: 'R' },
    ],
    xmlInfo: { exe: 'C:\\Synchro\\Synchro & Co.exe', serial: 'DEMO-1234' },
  },
};

const user = {
  ...demoUser,
  ConfigConnecteur:
    '<Connexion><Info><Exe>C:\\Synchro\\Synchro &amp; Co.exe</Exe><Serial>DEMO-1234</Serial></Info></Connexion>',
};

function show(extra: Record<string, Handler> = {}, data = view) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(user),
    'GET /api/config/planifications': () => json(data),
    'GET /api/dashboard': () => json({}),
    ...extra,
  });
  renderApp('/planning');
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof mockApi>, method: string, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && String(url) === path);

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

async function pick(user: ReturnType<typeof userEvent.setup>, combobox: string | RegExp, option: string) {
  await user.click(screen.getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Planification', () => {
  it('offers 15-minute steps, the spec days and types, and zones from GMT-12 to GMT+12', () => {
    expect(TIME_OPTIONS).toHaveLength(96);
    expect(TIME_OPTIONS[0]).toBe('00:00');
    expect(TIME_OPTIONS[1]).toBe('00:15');
    expect(TIME_OPTIONS.at(-1)).toBe('23:45');
    const standards = TIME_ZONES.map((z) => z.standard);
    expect(Math.min(...standards)).toBe(-12);
    expect(Math.max(...standards)).toBe(12);
    for (let h = -12; h <= 12; h++) expect(standards).toContain(h);
    expect(timeZoneOptions('Europe/Paris').find((o) => o.value === 'Europe/Paris')?.label).toBe(
      "GMT+1 Heure d'Europe centrale (Paris, Bruxelles)",
    );
    // Every zone is one the browser knows, with its standard offset in January or July.
    for (const z of TIME_ZONES) {
      const offsets = [Date.UTC(2025, 0, 15), Date.UTC(2025, 6, 15)].map((t) => zoneOffsetMinutes(t, z.zone));
      expect(Math.min(...offsets)).toBe(z.standard * 60);
    }
  });

  it('reads offsets as +hh:mm or GMT+n and keeps a stored zone outside the list', () => {
    expect(parseOffset('+01:00')).toBe(60);
    expect(parseOffset('-03:30')).toBe(-210);
    expect(parseOffset('GMT+1 Central European Time')).toBe(60);
    expect(parseOffset('GMT-12')).toBe(-720);
    expect(parseOffset('GMT')).toBe(0);
    expect(parseOffset('Europe/Paris')).toBeNull();
    expect(formatOffsetValue(-210)).toBe('-03:30');
    expect(timeZoneOptions('GMT+1 Central European Time')[0]).toEqual({
      value: 'GMT+1 Central European Time',
      label: 'GMT+1 Central European Time (valeur enregistrée)',
    });
    const legacy = toPlanningForm({
      timeZone: 'GMT+1 Central European Time',
      timeZoneOffset: '',
      plannings: [],
      xmlInfo: NO_INFO,
    });
    expect(timeZonePayload(legacy)).toEqual({ value: '+01:00', label: 'GMT+1 Central European Time' });
    const paris = toPlanningForm({
      timeZone: 'Europe/Paris',
      timeZoneOffset: '+01:00',
      plannings: [],
      xmlInfo: NO_INFO,
    });
    expect(timeZonePayload(paris, Date.UTC(2025, 6, 1))).toEqual({ value: '+02:00', label: 'Europe/Paris' });
    expect(timeZonePayload(paris, Date.UTC(2025, 0, 1))).toEqual({ value: '+01:00', label: 'Europe/Paris' });
    expect(timeZonePayload({ timeZone: '', timeZoneOffset: '', plannings: [], xmlInfo: NO_INFO })).toBeNull();
  });

  it('shows the time zone, its offset and every schedule', async () => {
    show();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Planification des synchronisations' }),
    ).toBeVisible();
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Les heures affichées sont adaptées au fuseau horaire local.');
    expect(within(note).getByText('UTC+4')).toBeVisible();
    expect(screen.getByRole('combobox', { name: /^Fuseau horaire/ })).toHaveTextContent('GMT+4 La Réunion');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Jours de synchronisation',
      'Heure synchro',
      'Type synchro',
      'Action',
    ]);
    expect(rows()).toHaveLength(2);
    expect(
      screen.getByRole('combobox', { name: 'Jour de synchronisation, planification 1' }),
    ).toHaveTextContent('Lundi');
    expect(
      screen.getByRole('combobox', { name: 'Heure de synchronisation, planification 2' }),
    ).toHaveTextContent('12:30');
    expect(
      screen.getByRole('combobox', { name: 'Type de synchronisation, planification 2' }),
    ).toHaveTextContent('Incrémentale');
    expect(
      screen.getByRole('button', {
        name: 'Supprimer la planification 2 (Tous les jours à 12:30, Incrémentale)',
      }),
    ).toBeVisible();
  });

  it('offers the days 1 Lundi to 7 Dimanche, then 8 Tous les jours, in that order', async () => {
    const u = userEvent.setup();
    show();
    await u.click(await screen.findByRole('combobox', { name: 'Jour de synchronisation, planification 2' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Lundi',
      'Mardi',
      'Mercredi',
      'Jeudi',
      'Vendredi',
      'Samedi',
      'Dimanche',
      'Tous les jours',
    ]);
    // Row 2 is stored as day 8.
    expect(screen.getByRole('option', { name: 'Tous les jours' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows no offset badge for a zone at UTC, and the empty message without schedules', async () => {
    show(
      {},
      { version: 2, data: { timeZone: 'UTC', timeZoneOffset: '+00:00', plannings: [], xmlInfo: NO_INFO } },
    );
    expect(
      await screen.findByText(
        'Aucune planification trouvée. Cliquez sur "Ajouter" pour créer une nouvelle planification.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('note')).toHaveTextContent(
      /^Les heures affichées sont adaptées au fuseau horaire local\.$/,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('adds a row (every day, 00:00, complete) and deletes rows; each edit marks unsaved changes', async () => {
    const u = userEvent.setup();
    show();
    await u.click(await screen.findByRole('button', { name: 'Ajouter' }));
    expect(rows()).toHaveLength(3);
    const day = screen.getByRole('combobox', { name: 'Jour de synchronisation, planification 3' });
    expect(day).toHaveTextContent('Tous les jours');
    expect(day).toHaveFocus();
    expect(
      screen.getByRole('combobox', { name: 'Heure de synchronisation, planification 3' }),
    ).toHaveTextContent('00:00');
    expect(
      screen.getByRole('combobox', { name: 'Type de synchronisation, planification 3' }),
    ).toHaveTextContent('Complète');
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();

    await u.click(screen.getByRole('button', { name: /^Supprimer la planification 1 / }));
    expect(rows()).toHaveLength(2);
    expect(
      screen.getByRole('combobox', { name: 'Jour de synchronisation, planification 1' }),
    ).toHaveTextContent('Tous les jours');
    expect(screen.getByRole('button', { name: /^Supprimer la planification 1 / })).toHaveFocus();
    await u.click(screen.getByRole('button', { name: /^Supprimer la planification 1 / }));
    await u.click(screen.getByRole('button', { name: /^Supprimer la planification 1 / }));
    expect(screen.getByText(/^Aucune planification trouvée\./)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Ajouter' })).toHaveFocus();
  });

  it('saves the exact payload with If-Match, then refetches the list, the user and the dashboard', async () => {
    const u = userEvent.setup();
    const fetchMock = show({
      'POST /api/plannings': () =>
        json({ message: 'Les planifications ont été sauvegardées avec succès', version: 8 }),
    });
    await screen.findByRole('table');
    await pick(u, 'Jour de synchronisation, planification 1', 'Vendredi');
    await pick(u, 'Heure de synchronisation, planification 1', '23:45');
    await pick(u, 'Type de synchronisation, planification 2', 'Import Saisies Mobiles');
    await pick(u, /^Fuseau horaire/, "GMT+1 Heure d'Europe centrale (Paris, Bruxelles)");
    await u.click(screen.getByRole('button', { name: 'Ajouter' }));
    const userCalls = calls(fetchMock, 'GET', '/api/user').length;
    const listCalls = calls(fetchMock, 'GET', '/api/config/planifications').length;
    await u.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (await screen.findAllByText('Les planifications ont été sauvegardées avec succès', { exact: true }))[0],
    ).toBeVisible();
    const [[, init]] = calls(fetchMock, 'POST', '/api/plannings') as [[string, RequestInit]];
    expect((init.headers as Record<string, string>)['If-Match']).toBe('"7"');
    expect(JSON.parse(String(init.body))).toEqual({
      plannings: [
        { day: 5, time: '23:45', type: 'C' },
        { day: 8, time: '12:30', type: 'I' },
        { day: 8, time: '00:00', type: 'C' },
      ],
      xmlInfo: { exe: 'C:\\Synchro\\Synchro & Co.exe', serial: 'DEMO-1234' },
      timeZone: {
        value: formatOffsetValue(zoneOffsetMinutes(Date.now(), 'Europe/Paris')),
        label: 'Europe/Paris',
      },
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/user').length).toBeGreaterThan(userCalls));
    expect(calls(fetchMock, 'GET', '/api/config/planifications').length).toBeGreaterThan(listCalls);
  });

  it('shows the conflict toast with Recharger, the server text of a 400 and the default text otherwise', async () => {
    const u = userEvent.setup();
    let answer = () =>
      json(
        {
          message: 'Configuration modifiée entre-temps.',
          code: 'conflict',
          error: 'Configuration modifiée entre-temps.',
        },
        409,
      );
    show({ 'POST /api/plannings': () => answer() });
    await u.click(await screen.findByRole('button', { name: 'Ajouter' }));
    const valider = screen.getByRole('button', { name: 'Valider' });
    await u.click(valider);
    expect(
      (await screen.findAllByText('Configuration modifiée entre-temps.', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();

    answer = () =>
      json(
        {
          message: 'Heure attendue au format HH:MM (00:00 à 23:59)',
          error: 'Heure attendue au format HH:MM (00:00 à 23:59)',
        },
        400,
      );
    await u.click(valider);
    expect(
      (await screen.findAllByText('Heure attendue au format HH:MM (00:00 à 23:59)', { exact: true }))[0],
    ).toBeVisible();

    answer = () => new Response('', { status: 500, statusText: '' });
    await u.click(valider);
    expect(
      (await screen.findAllByText('Impossible de sauvegarder les planifications', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
  });

  it('shows the loading text, then the load error with a toast and Réessayer', async () => {
    const u = userEvent.setup();
    let fail = true;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    show({
      'GET /api/config/planifications': async () => {
        await gate;
        return fail ? json({ message: 'Configuration illisible' }, 422) : json(view);
      },
    });
    expect(await screen.findByText('Chargement des planifications...')).toBeVisible();
    release();
    expect(
      await screen.findByRole('heading', {
        name: "Une erreur s'est produite lors du chargement des planifications.",
      }),
    ).toBeVisible();
    expect(
      (await screen.findAllByText('Impossible de récupérer les planifications', { exact: true }))[0],
    ).toBeVisible();
    fail = false;
    await u.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('table')).toBeVisible();
  });
});

describe('Planification: the configuration saved elsewhere', () => {
  it('edits under way stay when the section is refetched at a newer version, and the screen says so', async () => {
    let data = view;
    mockApi({
      'GET /api/user': () => json(user),
      'GET /api/config/planifications': () => json(data),
      'GET /api/dashboard': () => json({}),
    });
    const { queryClient } = renderApp('/planning');
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Ajouter' }));
    expect(rows()).toHaveLength(3);
    expect(screen.queryByText(/modifiée ailleurs/)).toBeNull();
    // What the live event « config » does (app/shell/live-events.ts): the sections refetched.
    data = { ...view, version: 8 };
    await queryClient.invalidateQueries({ queryKey: ['config'] });
    expect(await screen.findByRole('alert')).toHaveTextContent(/La configuration a été modifiée ailleurs/);
    expect(rows()).toHaveLength(3);
    await u.click(screen.getByRole('button', { name: 'Recharger' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByText(/modifiée ailleurs/)).toBeNull();
  });
});
