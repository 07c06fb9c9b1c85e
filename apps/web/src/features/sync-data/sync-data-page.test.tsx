import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TSyncDataResponse } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { histoUnit, parseHisto } from './sync-data-form.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const view: TSyncDataResponse = {
  version: 7,
  data: {
    syncData: [
      {
        Reference: 'ADRESSE-CLIENT',
        Complete: true,
        Libelle: 'Adresse Client',
        Histo: 0,
        CanHaveHistory: false,
      },
      { Reference: 'AFFAIRE', Complete: true, Libelle: 'Affaires', Histo: 9000, CanHaveHistory: true },
      { Reference: 'DOCUMENTDEVIS', Complete: false, Libelle: 'Doc Devis', Histo: 5, CanHaveHistory: true },
      { Reference: 'PLANNING', Complete: true, Libelle: 'Planning', Histo: 0, CanHaveHistory: true },
    ],
  },
};

function show(extra: Record<string, Handler> = {}, answer: Handler = () => json(view)) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/sync-data': answer,
    ...extra,
  });
  renderApp('/sync-data');
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST') as [string, RequestInit][];

const histo = (libelle: string) => screen.getByRole('spinbutton', { name: `Historique de ${libelle}` });

describe('Données à synchroniser: rules', () => {
  it('parses the history: digits only, 0 to 10000, empty is 0', () => {
    expect(parseHisto('')).toBe(0);
    expect(parseHisto('0')).toBe(0);
    expect(parseHisto('10000')).toBe(10000);
    expect(parseHisto('10001')).toBeNull();
    expect(parseHisto('1.5')).toBeNull();
    expect(parseHisto('1,5')).toBeNull();
    expect(parseHisto('-1')).toBeNull();
    expect(parseHisto('12a')).toBeNull();
  });

  it('names the unit: Documents from 1 to 10, Jours above', () => {
    expect(histoUnit(0)).toBe('');
    expect(histoUnit(1)).toBe('Documents');
    expect(histoUnit(10)).toBe('Documents');
    expect(histoUnit(11)).toBe('Jours');
    expect(histoUnit(10000)).toBe('Jours');
  });
});

describe('Données à synchroniser', { timeout: 15_000 }, () => {
  it('shows the loading text, then the table with a history field only where it can be', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    show({}, () => answered.then(() => json(view)));
    expect(await screen.findByText('Chargement des données à synchroniser...')).toBeVisible();
    release();

    const table = await screen.findByRole('table', { name: 'Données à synchroniser' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Synchroniser', 'Données à synchroniser', 'Historique']);
    expect(screen.getByRole('checkbox', { name: 'Adresse Client' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Doc Devis' })).not.toBeChecked();
    expect(screen.queryByRole('spinbutton', { name: 'Historique de Adresse Client' })).toBeNull();
    expect(histo('Affaires')).toHaveValue('9000');
    expect(histo('Affaires')).toHaveAccessibleDescription('Jours');
    expect(histo('Doc Devis')).toHaveValue('5');
    expect(histo('Doc Devis')).toHaveAccessibleDescription('Documents');
    // 0 is shown empty, without a unit.
    expect(histo('Planning')).toHaveValue('');
    expect(histo('Planning')).toHaveAccessibleDescription('');
    expect(screen.getByRole('checkbox', { name: 'Tout' })).toHaveAttribute('data-state', 'indeterminate');
    await waitFor(() => expect(document.title).toBe('Données à synchroniser – Synchro'));
  });

  it("'Tout' checks all, then unchecks all; it is checked when every row is", async () => {
    const user = userEvent.setup();
    show();
    const all = await screen.findByRole('checkbox', { name: 'Tout' });
    await user.click(all);
    for (const name of ['Adresse Client', 'Affaires', 'Doc Devis', 'Planning'])
      expect(screen.getByRole('checkbox', { name })).toBeChecked();
    expect(all).toBeChecked();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await user.click(all);
    for (const name of ['Adresse Client', 'Affaires', 'Doc Devis', 'Planning'])
      expect(screen.getByRole('checkbox', { name })).not.toBeChecked();
    expect(all).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Planning' }));
    expect(all).toHaveAttribute('data-state', 'indeterminate');
  });

  it('keeps the previous value for refused input and blocks the decimal keys', async () => {
    const user = userEvent.setup();
    show();
    const field = await screen.findByRole('spinbutton', { name: 'Historique de Doc Devis' });
    await user.type(field, '.,');
    expect(field).toHaveValue('5');
    await user.type(field, 'x');
    expect(field).toHaveValue('5');
    await user.type(field, '0');
    expect(field).toHaveValue('50');
    expect(field).toHaveAccessibleDescription('Jours');
    await user.type(field, '000');
    // 50000 is above 10000: ignored.
    expect(field).toHaveValue('5000');
    await user.type(field, '0');
    expect(field).toHaveValue('5000');
    await user.clear(field);
    expect(field).toHaveValue('');
    await user.type(field, '{ArrowUp}{ArrowUp}');
    expect(field).toHaveValue('2');
    expect(field).toHaveAccessibleDescription('Documents');
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
  });

  it("cancels the '.' and ',' keys in the history field, not the digits", async () => {
    show();
    const field = await screen.findByRole('spinbutton', { name: 'Historique de Doc Devis' });
    // fireEvent returns false when a handler called preventDefault.
    expect(fireEvent.keyDown(field, { key: '.', code: 'Period' })).toBe(false);
    expect(fireEvent.keyDown(field, { key: ',', code: 'Comma' })).toBe(false);
    expect(fireEvent.keyDown(field, { key: '7', code: 'Digit7' })).toBe(true);
    expect(field).toHaveValue('5');
  });

  it('saves the exact payload with If-Match, then clears the unsaved flag', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/sync-data/save': () =>
        json({ message: 'Les données de synchronisation ont été sauvegardées', version: 8 }),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Doc Devis' }));
    await user.click(screen.getByRole('checkbox', { name: 'Adresse Client' }));
    const field = histo('Affaires');
    await user.clear(field);
    await user.type(field, '30');
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (await screen.findAllByText('Les données de synchronisation ont été sauvegardées', { exact: true }))[0],
    ).toBeVisible();
    const [[url, init]] = posts(fetchMock) as [[string, RequestInit]];
    expect(url).toBe('/api/sync-data/save');
    expect((init.headers as Record<string, string>)['If-Match']).toBe('"7"');
    expect(JSON.parse(String(init.body))).toEqual({
      syncData: [
        {
          Reference: 'ADRESSE-CLIENT',
          Complete: false,
          Libelle: 'Adresse Client',
          Histo: 0,
          CanHaveHistory: false,
        },
        { Reference: 'AFFAIRE', Complete: true, Libelle: 'Affaires', Histo: 30, CanHaveHistory: true },
        { Reference: 'DOCUMENTDEVIS', Complete: true, Libelle: 'Doc Devis', Histo: 5, CanHaveHistory: true },
        { Reference: 'PLANNING', Complete: true, Libelle: 'Planning', Histo: 0, CanHaveHistory: true },
      ],
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([u]) => u === '/api/config/sync-data').length).toBeGreaterThan(1),
    );
  });

  it("shows 'Erreur' with the server's text, the conflict's reload, and the default text", async () => {
    const user = userEvent.setup();
    let status = 409;
    show({
      'POST /api/sync-data/save': () =>
        status === 409
          ? json({ message: 'Configuration modifiée entre-temps.', code: 'conflict' }, 409)
          : status === 400
            ? json({ message: 'Historique : 10000 au maximum' }, 400)
            : new Response('', { status, statusText: '' }),
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Planning' }));
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Configuration modifiée entre-temps.', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getAllByText('Erreur', { exact: true })[0]).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();

    status = 400;
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect((await screen.findAllByText('Historique : 10000 au maximum', { exact: true }))[0]).toBeVisible();

    status = 500;
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Une erreur est survenue lors de la sauvegarde', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
  });

  it("shows the load error with 'Réessayer'", async () => {
    const user = userEvent.setup();
    let fail = true;
    show({}, () => (fail ? json({ message: 'Base indisponible' }, 500) : json(view)));
    expect(await screen.findByText('Base indisponible')).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('checkbox', { name: 'Affaires' })).toBeChecked();
  });
});
