import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TExternalCalendarsResponse } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { authorisedTerminals } from './external-calendars-form.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const view: TExternalCalendarsResponse = {
  version: 5,
  data: {
    agendaType: 'Google',
    mappings: [
      { ID_Salarie: 'CO00002', ID_Agenda: 'agenda-hugo' },
      { ID_Salarie: '-1', ID_Agenda: '-1' },
      { ID_Salarie: 'TE00001', ID_Agenda: 'inconnu@exemple.fr' },
    ],
    employees: [
      { IDInterne: 'CO00002', Nom: 'BERGER', Prenom: 'Hugo', kind: 'salarie' },
      { IDInterne: 'CO00005', Nom: 'FAURE', Prenom: 'Claire', kind: 'salarie' },
      { IDInterne: 'TE00001', Nom: 'MARTIN', Prenom: 'Léa', kind: 'technicien' },
    ],
    agendas: [
      { ID: 'agenda-hugo', Libelle: 'Agenda de Hugo' },
      { ID: 'agenda-claire', Libelle: 'Agenda de Claire' },
    ],
  },
};

function show(extra: Record<string, Handler> = {}, options = '4;DEMOA001;A') {
  const fetchMock = mockApi({
    'GET /api/user': () => json({ ...demoUser, Options: options }),
    'GET /api/config/external-calendars': () => json(view),
    ...extra,
  });
  renderApp('/external-calendars');
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('Agendas externes', () => {
  it('reads the authorised terminals from Options', () => {
    expect(authorisedTerminals('25;DEMOA001;A')).toBe(25);
    expect(authorisedTerminals('3')).toBe(3);
    expect(authorisedTerminals('')).toBe(0);
    expect(authorisedTerminals('x;1')).toBe(0);
    expect(authorisedTerminals(undefined)).toBe(0);
  });

  it('shows the agenda type and one row per authorised terminal at least, Libre first', async () => {
    const user = userEvent.setup();
    show();
    expect(await screen.findByRole('combobox', { name: /^Type d'agenda/ })).toHaveTextContent(
      'Compte Gmail Google Agenda',
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'N°',
      'Salariés',
      'Agendas',
    ]);
    expect(rows()).toHaveLength(4);
    expect(screen.getByRole('combobox', { name: 'Salarié de la ligne 1' })).toHaveTextContent('Hugo BERGER');
    expect(screen.getByRole('combobox', { name: 'Agenda de la ligne 1' })).toHaveTextContent(
      'Agenda de Hugo',
    );
    expect(screen.getByRole('combobox', { name: 'Salarié de la ligne 2' })).toHaveTextContent('Libre');
    expect(screen.getByRole('combobox', { name: 'Salarié de la ligne 3' })).toHaveTextContent(
      'Léa MARTIN (technicien)',
    );
    expect(screen.getByRole('combobox', { name: 'Agenda de la ligne 3' })).toHaveTextContent(
      'inconnu@exemple.fr (valeur enregistrée)',
    );
    expect(screen.getByRole('combobox', { name: 'Salarié de la ligne 4' })).toHaveTextContent('Libre');

    await user.click(screen.getByRole('combobox', { name: 'Salarié de la ligne 4' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Libre',
      'Hugo BERGER',
      'Claire FAURE',
      'Léa MARTIN (technicien)',
    ]);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('combobox', { name: /^Type d'agenda/ }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      "Pas d'agenda Externe",
      'Compte Gmail Google Agenda',
      'Compte Office 365 Outlook',
    ]);
  });

  it("offers 'Libre' first in the Agendas list too, and shows it for a row whose agenda is -1", async () => {
    const user = userEvent.setup();
    show();
    const agenda = await screen.findByRole('combobox', { name: 'Agenda de la ligne 2' });
    expect(agenda).toHaveTextContent('Libre');
    await user.click(agenda);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Libre',
      'Agenda de Hugo',
      'Agenda de Claire',
    ]);
    expect(screen.getByRole('option', { name: 'Libre' })).toHaveAttribute('aria-selected', 'true');
  });

  it('keeps every stored row when there are more rows than terminals', async () => {
    show({}, '2;DEMOA001;A');
    await screen.findByRole('table');
    expect(rows()).toHaveLength(3);
  });

  it('saves the exact payload with If-Match (free = -1, empty type), then clears the unsaved flag', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/external-calendars': () =>
        json({ message: 'Les agendas externes ont été mis à jour avec succès.', version: 6 }),
    });
    await user.click(await screen.findByRole('combobox', { name: /^Type d'agenda/ }));
    await user.click(await screen.findByRole('option', { name: "Pas d'agenda Externe" }));
    await user.click(screen.getByRole('combobox', { name: 'Salarié de la ligne 2' }));
    await user.click(await screen.findByRole('option', { name: 'Claire FAURE' }));
    await user.click(screen.getByRole('combobox', { name: 'Agenda de la ligne 2' }));
    await user.click(await screen.findByRole('option', { name: 'Agenda de Claire' }));
    await user.click(screen.getByRole('combobox', { name: 'Salarié de la ligne 1' }));
    await user.click(await screen.findByRole('option', { name: 'Libre' }));
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (
        await screen.findAllByText('Les agendas externes ont été mis à jour avec succès.', { exact: true })
      )[0],
    ).toBeVisible();
    const [[url, init]] = posts(fetchMock) as [[string, RequestInit]];
    expect(url).toBe('/api/database/external-calendars');
    expect((init.headers as Record<string, string>)['If-Match']).toBe('"5"');
    expect(JSON.parse(String(init.body))).toEqual({
      agendaType: '',
      mappings: [
        { ID_Salarie: '-1', ID_Agenda: 'agenda-hugo' },
        { ID_Salarie: 'CO00005', ID_Agenda: 'agenda-claire' },
        { ID_Salarie: 'TE00001', ID_Agenda: 'inconnu@exemple.fr' },
        { ID_Salarie: '-1', ID_Agenda: '-1' },
      ],
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it('shows the conflict toast, the server text of a 400, and the default text otherwise', async () => {
    const user = userEvent.setup();
    let answer = () => json({ message: 'Configuration modifiée entre-temps.', code: 'conflict' }, 409);
    show({ 'POST /api/database/external-calendars': () => answer() });
    await user.click(await screen.findByRole('combobox', { name: 'Agenda de la ligne 4' }));
    await user.click(await screen.findByRole('option', { name: 'Agenda de Claire' }));
    const valider = screen.getByRole('button', { name: 'Valider' });
    await user.click(valider);
    expect(
      (await screen.findAllByText('Configuration modifiée entre-temps.', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();

    answer = () =>
      json({ message: "Type d'agenda attendu : '' (pas d'agenda externe), 'Google' ou 'Microsoft'" }, 400);
    await user.click(valider);
    expect((await screen.findAllByText(/^Type d'agenda attendu/, { exact: true }))[0]).toBeVisible();

    answer = () => new Response('', { status: 500, statusText: '' });
    await user.click(valider);
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des agendas externes', { exact: true }))[0],
    ).toBeVisible();
  });

  it('shows the load error with Réessayer', async () => {
    const user = userEvent.setup();
    let fail = true;
    show({
      'GET /api/config/external-calendars': () =>
        fail ? json({ message: 'Configuration illisible' }, 422) : json(view),
    });
    expect(await screen.findByText('Configuration illisible')).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('table')).toBeVisible();
  });
});
