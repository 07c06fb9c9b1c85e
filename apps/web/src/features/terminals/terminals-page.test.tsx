import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TDataListsResponse, TTerminalsResponse, TTerminalView } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { transactionRow, transactionsPage } from '../../test/history-fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { nextAutorise } from './terminals-form.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const features = [
  { ID: '1', Libelle: 'Clients / Prospects' },
  { ID: '2', Libelle: 'Fournisseurs' },
  { ID: '3', Libelle: 'Contacts' },
];

const terminal = (over: Partial<TTerminalView>): TTerminalView => ({
  xmlIndex: 0,
  Nom: 'Libre',
  ID_Tablette: '',
  ID_Smartphone: '',
  declared: false,
  technicienId: '',
  depotId: '',
  commerciaux: [],
  authorizations: features.map((f) => ({ ...f, Autorise: 0 as const })),
  ...over,
});

const pixel = terminal({
  xmlIndex: 0,
  Nom: 'pixel 8',
  ID_Tablette: '815bf75ff86d94fa',
  ID_Smartphone: '4127ca92e1ae327b',
  declared: true,
  technicienId: 'CO00006',
  depotId: 'DEP-1',
  commerciaux: [{ IDInterne: 'CO00002', Libelle: 'BERGER Hugo' }],
  authorizations: [
    { ID: '1', Libelle: 'Clients / Prospects', Autorise: 1 },
    { ID: '2', Libelle: 'Fournisseurs', Autorise: -1 },
    { ID: '3', Libelle: 'Contacts', Autorise: 0 },
  ],
});

const view = (
  terminals: TTerminalView[] = [
    pixel,
    terminal({ xmlIndex: 1, Nom: 'Zebra', ID_Smartphone: 'a15ac7', declared: true }),
    terminal({ xmlIndex: 2 }),
  ],
): TTerminalsResponse => ({
  version: 7,
  data: { terminals, authorizations: { authorizations: features, from: 'data' } },
});

const lists: TDataListsResponse = {
  version: 7,
  data: {
    salaries: [
      { IDInterne: 'CO00002', Nom: 'BERGER', Prenom: 'Hugo' },
      { IDInterne: 'CO00005', Nom: 'FAURE', Prenom: 'Claire' },
    ],
    techniciens: [
      { IDInterne: 'CO00006', Nom: 'LEROY', Prenom: 'Chloé' },
      { IDInterne: 'CO00008', Nom: 'MERCIER', Prenom: 'Julien' },
    ],
    agendas: [],
    depots: [
      { IDInterne: 'DEP-1', Code: 'DEP-1', Libelle: 'Principal' },
      { IDInterne: 'DEP-2', Code: 'DEP-2', Libelle: 'Secondaire' },
    ],
    famillesArticles: [],
    famillesClients: [],
    famillesFournisseurs: [],
  },
};

function show(extra: Record<string, Handler> = {}, terminals = view()) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/terminals': () => json(terminals),
    'GET /api/config/data-lists': () => json(lists),
    ...extra,
  });
  renderApp('/terminals');
  return fetchMock;
}

const terminalButton = (name: RegExp) =>
  within(screen.getByRole('list', { name: 'Liste des terminaux' })).getByRole('button', { name });

async function open(user: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await screen.findByRole('heading', { name: 'Liste des terminaux' });
  await user.click(terminalButton(name));
}

const patchCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');

describe('Terminaux', () => {
  it('lists the terminals and asks to pick one', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Terminaux', level: 1 })).toBeVisible();
    expect(await screen.findByText("Sélectionnez un terminal pour l'éditer")).toBeVisible();
    const first = terminalButton(/pixel 8/);
    expect(first).toHaveTextContent('#1');
    expect(first).toHaveTextContent('Déclaré');
    expect(first).toHaveAccessibleName(/Tablette \/ PC\s: 815bf75ff86d94fa/);
    expect(first).toHaveAccessibleName(/Smartphone\s: 4127ca92e1ae327b/);
    expect(terminalButton(/#2/)).not.toHaveTextContent('Tablette');
    expect(terminalButton(/#3/)).toHaveTextContent('Libre');
    expect(terminalButton(/#3/)).not.toHaveTextContent('Déclaré');
    expect(screen.getByText('2 déclarés sur 3')).toBeVisible();
  });

  it('says when the terminals’ activity cannot be read, and reads it again on « Réessayer »', async () => {
    const user = userEvent.setup();
    let fail = true;
    show({
      'GET /api/terminals/activity': () =>
        fail
          ? json({ message: 'Indisponible' }, 500)
          : json({ terminals: [], now: '2026-11-29T12:00:00.000Z', zone: 'Europe/Paris' }),
    });
    const list = await screen.findByRole('heading', { name: 'Liste des terminaux' });
    expect(list).toBeVisible();
    expect(await screen.findByText('Impossible de charger l’activité des terminaux.')).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() =>
      expect(screen.queryByText('Impossible de charger l’activité des terminaux.')).not.toBeInTheDocument(),
    );
    expect(screen.getAllByText('Jamais vu').length).toBeGreaterThan(0);
  });

  it('shows the exact time of a terminal’s last exchange as text, in its button’s name (keyboard, screen readers)', async () => {
    show({
      'GET /api/terminals/activity': () =>
        json({
          terminals: [
            {
              terminalId: '4127ca92e1ae327b',
              lastExchangeAt: '2026-11-29T11:55:00.000Z',
              transactions24h: 1,
              errors24h: 0,
            },
          ],
          now: '2026-11-29T12:00:00.000Z',
          zone: 'Europe/Paris',
        }),
    });
    await screen.findByRole('heading', { name: 'Liste des terminaux' });
    const button = await waitFor(() => {
      const found = terminalButton(/pixel 8/);
      expect(found).toHaveTextContent('Actif');
      return found;
    });
    expect(button).toHaveTextContent('Dernier échange il y a 5 minutes, le 29/11/2026 12:55 (UTC+1)');
    expect(button).toHaveAccessibleName(/Dernier échange il y a 5 minutes, le 29\/11\/2026 12:55 \(UTC\+1\)/);
    const time = within(button).getByText('le 29/11/2026 12:55 (UTC+1)');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', '2026-11-29T11:55:00.000Z');
    expect(button.querySelector('[title]')).toBeNull();
  });

  it('gives a terminal’s transactions of both its ids (tablet and smartphone), and links to the trace on both', async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    show({
      'GET /api/terminals/activity': () =>
        json({ terminals: [], now: '2026-11-29T12:00:00.000Z', zone: 'Europe/Paris' }),
      'GET /api/transaction-logs': (_init, url) => {
        asked.push(url);
        return json(
          transactionsPage([
            transactionRow(0, { IDTablette: '4127ca92e1ae327b', RefDoc: 'DEVIS-PHONE' }),
            transactionRow(1, { IDTablette: '815bf75ff86d94fa', RefDoc: 'DEVIS-TAB', Err: 1 }),
          ]),
        );
      },
    });
    await open(user, /pixel 8/);
    const table = await screen.findByRole('table', {
      name: 'Dernières transactions de 815bf75ff86d94fa et 4127ca92e1ae327b',
    });
    const query = new URL(asked.at(-1)!, 'http://x').searchParams;
    expect(query.getAll('terminal')).toEqual(['815bf75ff86d94fa', '4127ca92e1ae327b']);
    expect(query.get('pageSize')).toBe('20');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getByRole('columnheader', { name: 'ID Terminal' })).toBeVisible();
    expect(rows[1]).toHaveTextContent(/DEVIS-PHONE.*4127ca92e1ae327b.*OK/);
    expect(rows[2]).toHaveTextContent(/DEVIS-TAB.*815bf75ff86d94fa.*Erreur/);
    expect(screen.getByRole('link', { name: 'Voir toutes ses transactions dans la trace' })).toHaveAttribute(
      'href',
      '/transaction-logs?terminal=815bf75ff86d94fa&terminal=4127ca92e1ae327b',
    );
  });

  it('a terminal with one id: its transactions and its trace link on that id, no id column', async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    show({
      'GET /api/terminals/activity': () =>
        json({ terminals: [], now: '2026-11-29T12:00:00.000Z', zone: 'Europe/Paris' }),
      'GET /api/transaction-logs': (_init, url) => {
        asked.push(url);
        return json(transactionsPage([transactionRow(0, { IDTablette: 'a15ac7' })]));
      },
    });
    await open(user, /Zebra/);
    const table = await screen.findByRole('table', { name: 'Dernières transactions de a15ac7' });
    expect(new URL(asked.at(-1)!, 'http://x').searchParams.getAll('terminal')).toEqual(['a15ac7']);
    expect(within(table).queryByRole('columnheader', { name: 'ID Terminal' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Voir toutes ses transactions dans la trace' })).toHaveAttribute(
      'href',
      '/transaction-logs?terminal=a15ac7',
    );
  });

  it('shows the selected terminal in the editor', async () => {
    const user = userEvent.setup();
    show();
    await open(user, /pixel 8/);
    expect(terminalButton(/pixel 8/)).toHaveAttribute('aria-current', 'true');
    expect(await screen.findByRole('heading', { name: 'Édition du terminal #1 - pixel 8' })).toBeVisible();
    expect(screen.getByLabelText("Nom de l'utilisateur")).toHaveValue('pixel 8');
    expect(screen.getByLabelText('Identifiant Tablette / PC')).toHaveValue('815bf75ff86d94fa');
    expect(screen.getByLabelText('Identifiant Smartphone')).toHaveValue('4127ca92e1ae327b');
    expect(screen.getByRole('combobox', { name: /^Technicien par défaut/ })).toHaveTextContent('LEROY Chloé');
    expect(screen.getByRole('combobox', { name: /^Dépôt par défaut/ })).toHaveTextContent('Principal');
    const commerciaux = screen.getByRole('group', { name: 'Filtre Commerciaux (Salariés)' });
    expect(within(commerciaux).getByRole('checkbox', { name: 'BERGER Hugo' })).toBeChecked();
    expect(within(commerciaux).getByRole('checkbox', { name: 'FAURE Claire' })).not.toBeChecked();
    const list = screen.getByRole('list', { name: 'Fonctionnalités' });
    expect(within(list).getByRole('button', { name: 'Clients / Prospects\u00a0: Autorisé' })).toBeVisible();
    expect(within(list).getByRole('button', { name: 'Fournisseurs\u00a0: Invisible' })).toBeVisible();
    expect(within(list).getByRole('button', { name: 'Contacts\u00a0: Interdit' })).toBeVisible();
  });

  it('shows "Sans nom" for a terminal without a name and the empty choices', async () => {
    const user = userEvent.setup();
    show({}, view([terminal({ xmlIndex: 0, Nom: '' })]));
    await open(user, /Sans nom/);
    expect(await screen.findByRole('heading', { name: 'Édition du terminal #1 - Sans nom' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: /^Technicien par défaut/ })).toHaveTextContent(
      'Aucun technicien',
    );
    expect(screen.getByRole('combobox', { name: /^Dépôt par défaut/ })).toHaveTextContent('Aucun dépôt');
  });

  it('cycles a feature 1 → -1 → 0 → 1 and sets them all', async () => {
    expect([1, -1, 0].map((v) => nextAutorise(v as 1 | -1 | 0))).toEqual([-1, 0, 1]);
    const user = userEvent.setup();
    show();
    await open(user, /pixel 8/);
    const list = await screen.findByRole('list', { name: 'Fonctionnalités' });
    await user.click(within(list).getByRole('button', { name: 'Clients / Prospects\u00a0: Autorisé' }));
    expect(within(list).getByRole('button', { name: 'Clients / Prospects\u00a0: Invisible' })).toBeVisible();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await user.click(within(list).getByRole('button', { name: 'Clients / Prospects\u00a0: Invisible' }));
    await user.click(within(list).getByRole('button', { name: 'Clients / Prospects\u00a0: Interdit' }));
    expect(within(list).getByRole('button', { name: 'Clients / Prospects\u00a0: Autorisé' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Tout Interdire' }));
    expect(within(list).getAllByRole('button', { name: /: Interdit$/ })).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Tout Autoriser' }));
    expect(within(list).getAllByRole('button', { name: /: Autorisé$/ })).toHaveLength(3);
  });

  it('saves the exact payload with If-Match, keeps the terminal selected and clears the flag', async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    const fetchMock = show({
      'PATCH /api/config/terminal': () =>
        new Promise<Response>((resolve) => {
          release = () =>
            resolve(json({ message: 'Les modifications ont été enregistrées avec succès', version: 8 }));
        }),
    });
    await open(user, /pixel 8/);
    const name = await screen.findByLabelText("Nom de l'utilisateur");
    await user.clear(name);
    await user.type(name, 'Pixel Hugo');
    await user.clear(screen.getByLabelText('Identifiant Smartphone'));
    await user.click(screen.getByRole('combobox', { name: /^Technicien par défaut/ }));
    await user.click(await screen.findByRole('option', { name: 'MERCIER Julien' }));
    await user.click(screen.getByRole('combobox', { name: /^Dépôt par défaut/ }));
    await user.click(await screen.findByRole('option', { name: 'Aucun dépôt' }));
    await user.click(screen.getByRole('checkbox', { name: 'BERGER Hugo' }));
    await user.click(screen.getByRole('checkbox', { name: 'FAURE Claire' }));
    await user.click(screen.getByRole('button', { name: 'Contacts\u00a0: Interdit' }));
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(await screen.findByRole('button', { name: 'Sauvegarde...' })).toHaveAttribute('aria-busy', 'true');
    const [url, init] = patchCalls(fetchMock)[0]!;
    expect(url).toBe('/api/config/terminal');
    expect((init!.headers as Record<string, string>)['If-Match']).toBe('"7"');
    expect(JSON.parse(String(init!.body))).toEqual({
      terminalIndex: 0,
      terminal: {
        Nom: 'Pixel Hugo',
        ID_Tablette: '815bf75ff86d94fa',
        ID_Smartphone: '',
        technicienId: 'CO00008',
        depotId: '',
        commerciaux: [{ IDInterne: 'CO00005', Libelle: 'FAURE Claire' }],
        authorizations: [
          { ID: '1', Autorise: 1, Libelle: 'Clients / Prospects' },
          { ID: '2', Autorise: -1, Libelle: 'Fournisseurs' },
          { ID: '3', Autorise: 1, Libelle: 'Contacts' },
        ],
      },
    });
    const userReads = fetchMock.mock.calls.filter(([u]) => u === '/api/user').length;
    release();

    expect((await screen.findAllByText('Succès', { exact: true }))[0]).toBeVisible();
    expect(
      (await screen.findAllByText('Les modifications ont été enregistrées avec succès', { exact: true }))[0],
    ).toBeVisible();
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
    // Reloaded (terminals and user), the same terminal still selected.
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([u]) => u === '/api/user').length).toBeGreaterThan(userReads),
    );
    expect(fetchMock.mock.calls.filter(([u]) => u === '/api/config/terminals').length).toBeGreaterThan(1);
    expect(screen.getByRole('heading', { name: /^Édition du terminal #1/ })).toBeVisible();
    expect(terminalButton(/#1/)).toHaveAttribute('aria-current', 'true');
  });

  it('asks before switching terminal with unsaved edits', async () => {
    const user = userEvent.setup();
    show();
    await open(user, /pixel 8/);
    await user.type(await screen.findByLabelText("Nom de l'utilisateur"), ' bis');
    await user.click(terminalButton(/Zebra/));
    const dialog = await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' });
    await user.click(within(dialog).getByRole('button', { name: 'Rester sur ce terminal' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText("Nom de l'utilisateur")).toHaveValue('pixel 8 bis');

    await user.click(terminalButton(/Zebra/));
    const again = await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' });
    await user.click(within(again).getByRole('button', { name: 'Changer sans sauvegarder' }));
    expect(await screen.findByRole('heading', { name: 'Édition du terminal #2 - Zebra' })).toBeVisible();
    expect(screen.getByLabelText("Nom de l'utilisateur")).toHaveValue('Zebra');
    expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument();
    // Back on the first one: the edits were dropped.
    await user.click(terminalButton(/pixel 8/));
    expect(await screen.findByLabelText("Nom de l'utilisateur")).toHaveValue('pixel 8');
  });

  it('switches at once when nothing is edited', async () => {
    const user = userEvent.setup();
    show();
    await open(user, /pixel 8/);
    await user.click(terminalButton(/Zebra/));
    expect(await screen.findByRole('heading', { name: 'Édition du terminal #2 - Zebra' })).toBeVisible();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the conflict with a reload action', async () => {
    const user = userEvent.setup();
    const conflict = "La configuration a été modifiée depuis l'ouverture de cet écran.";
    show({ 'PATCH /api/config/terminal': () => json({ message: conflict, code: 'conflict' }, 409) });
    await open(user, /pixel 8/);
    await user.type(await screen.findByLabelText('Identifiant Tablette / PC'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect((await screen.findAllByText(conflict, { exact: true }))[0]).toBeVisible();
    expect((await screen.findAllByText('Erreur', { exact: true }))[0]).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();
  });

  it("shows the server's text, or the default one", async () => {
    const user = userEvent.setup();
    let answer = () => json({ message: 'Le technicien CO99 est inconnu' }, 400);
    show({ 'PATCH /api/config/terminal': () => answer() });
    await open(user, /pixel 8/);
    await user.type(await screen.findByLabelText('Identifiant Tablette / PC'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect((await screen.findAllByText('Le technicien CO99 est inconnu', { exact: true }))[0]).toBeVisible();
    expect((await screen.findAllByText('Erreur', { exact: true }))[0]).toBeVisible();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();

    answer = () => new Response('', { status: 500, statusText: '' });
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Une erreur est survenue lors de la sauvegarde', { exact: true }))[0],
    ).toBeVisible();
  });

  it('refuses to save a terminal without a known position', async () => {
    const user = userEvent.setup();
    const fetchMock = show({}, view([terminal({ xmlIndex: -1, Nom: 'Orphelin' })]));
    await open(user, /Orphelin/);
    await user.type(await screen.findByLabelText('Identifiant Tablette / PC'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (
        await screen.findAllByText('Impossible de déterminer le terminal à mettre à jour', { exact: true })
      )[0],
    ).toBeVisible();
    expect(patchCalls(fetchMock)).toHaveLength(0);
  });

  it('shows the load error with a retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    show({
      'GET /api/config/terminals': () =>
        fail ? json({ message: 'Configuration illisible' }, 422) : json(view()),
    });
    expect(await screen.findByText('Configuration illisible')).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText("Sélectionnez un terminal pour l'éditer")).toBeVisible();
  });
});
