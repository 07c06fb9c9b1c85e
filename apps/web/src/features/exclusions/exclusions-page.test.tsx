import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TDataListsResponse, TExclusionsResponse, TFamily } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { FAMILY_PAGE } from './exclusions-page.tsx';
import { filterFamilies, indexFamilies, toExclusionsForm, toExclusionsPayload } from './exclusions-form.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const puzzles: TFamily = {
  id: 'PUZZ0001|',
  libelle: 'PUZZLES',
  subFamilies: [
    { id: 'PUZZ0001|SFAR00001', libelle: 'Puzzle + 900 pièces' },
    { id: 'PUZZ0001|SFAR00002', libelle: 'Puzzle - 900 pièces' },
  ],
};

const lists = (articles: TFamily[] = []): TDataListsResponse => ({
  version: 3,
  data: {
    salaries: [],
    techniciens: [],
    agendas: [],
    depots: [],
    famillesArticles: [
      { id: 'ANIM0001|', libelle: 'ANIMATIONS', subFamilies: [] },
      { id: 'CHAUFFAGE|', libelle: 'Chauffage', subFamilies: [] },
      puzzles,
      ...articles,
    ],
    famillesClients: [
      { id: 'FCL00001|', libelle: 'Autres', subFamilies: [] },
      {
        id: 'CE0001|',
        libelle: "Comités d'entreprise",
        subFamilies: [{ id: 'CE0001|SFCL00002', libelle: 'Entreprises Etrangères' }],
      },
    ],
    famillesFournisseurs: [{ id: 'GROSSI|', libelle: 'Grossiste', subFamilies: [] }],
  },
});

const view: TExclusionsResponse = {
  version: 9,
  data: {
    exclusions: [
      { id: 'ANIM0001|', libelle: 'ANIMATIONS', type: 'ItemFamily' },
      { id: 'PUZZ0001|SFAR00002', libelle: 'PUZZLES\tPuzzle - 900 pièces', type: 'ItemFamily' },
      { id: 'OLD0001|', libelle: 'Ancienne famille', type: 'ItemFamily' },
      {
        id: 'CE0001|SFCL00002',
        libelle: "Comités d'entreprise\tEntreprises Etrangères",
        type: 'CustomerFamily',
      },
      { id: 'GROSSI|', libelle: 'Grossiste', type: 'SupplierFamily' },
    ],
  },
};

function show(extra: Record<string, Handler> = {}, dataLists: Handler = () => json(lists())) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/exclusions': () => json(view),
    'GET /api/config/data-lists': dataLists,
    ...extra,
  });
  renderApp('/exclusions/family');
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST') as [string, RequestInit][];

const column = (name: string) => screen.getByRole('region', { name });

describe('Exclusions: rules', () => {
  it('sends a checked family alone, without its sub-families', () => {
    const form = toExclusionsForm({
      exclusions: [
        { id: 'PUZZ0001|SFAR00002', libelle: 'PUZZLES\tPuzzle - 900 pièces', type: 'ItemFamily' },
        { id: 'PUZZ0001|', libelle: 'PUZZLES', type: 'ItemFamily' },
        { id: 'PUZZ0001|SFAR00002', libelle: 'x', type: 'CustomerFamily' },
      ],
    });
    expect(toExclusionsPayload(form).exclusions).toEqual([
      { id: 'PUZZ0001|', libelle: 'PUZZLES', type: 'ItemFamily' },
      { id: 'PUZZ0001|SFAR00002', libelle: 'x', type: 'CustomerFamily' },
    ]);
  });

  it('filters by family or sub-family, ignoring case and accents', () => {
    const families = indexFamilies(lists().data.famillesArticles);
    expect(filterFamilies(families, 'chauf').map((v) => v.family.id)).toEqual(['CHAUFFAGE|']);
    const bySub = filterFamilies(families, '+ 900 PIECES');
    expect(bySub.map((v) => [v.family.id, v.subFamilies.map((s) => s.id), v.openedByFilter])).toEqual([
      ['PUZZ0001|', ['PUZZ0001|SFAR00001'], true],
    ]);
    expect(filterFamilies(families, '')).toHaveLength(3);
  });
});

describe('Exclusions de la synchro', { timeout: 15_000 }, () => {
  it('shows the three columns with the stored exclusions', async () => {
    const user = userEvent.setup();
    show();
    expect(await screen.findByRole('heading', { name: 'Famille articles', level: 2 })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Famille clients', level: 2 })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Famille fournisseurs', level: 2 })).toBeVisible();
    const articles = column('Famille articles');
    expect(within(articles).getByRole('checkbox', { name: 'ANIMATIONS' })).toBeChecked();
    expect(within(articles).getByRole('checkbox', { name: 'Chauffage' })).not.toBeChecked();
    expect(within(articles).getByRole('checkbox', { name: 'PUZZLES' })).not.toBeChecked();
    expect(within(articles).getByText('1/2 exclue')).toBeVisible();
    expect(within(articles).getByText(/1 exclusion absente des listes/)).toBeVisible();
    expect(within(column('Famille fournisseurs')).getByRole('checkbox', { name: 'Grossiste' })).toBeChecked();

    // Sub-families are collapsed until opened.
    expect(within(articles).queryByRole('checkbox', { name: 'Puzzle - 900 pièces' })).toBeNull();
    const expand = within(articles).getByRole('button', { name: 'Afficher les sous-familles de PUZZLES' });
    expect(expand).toHaveAttribute('aria-expanded', 'false');
    await user.click(expand);
    expect(expand).toHaveAttribute('aria-expanded', 'true');
    expect(expand).toHaveAccessibleName('Masquer les sous-familles de PUZZLES');
    expect(within(articles).getByRole('checkbox', { name: 'Puzzle - 900 pièces' })).toBeChecked();
    expect(within(articles).getByRole('checkbox', { name: 'Puzzle + 900 pièces' })).not.toBeChecked();
    await waitFor(() => expect(document.title).toBe('Exclusions de la synchro – Synchro'));
  });

  it('checking a family checks and disables its sub-families; unchecking gives back their own state', async () => {
    const user = userEvent.setup();
    show();
    const articles = await screen.findByRole('region', { name: 'Famille articles' });
    await user.click(within(articles).getByRole('button', { name: 'Afficher les sous-familles de PUZZLES' }));
    const family = within(articles).getByRole('checkbox', { name: 'PUZZLES' });
    const plus = within(articles).getByRole('checkbox', { name: 'Puzzle + 900 pièces' });
    const minus = within(articles).getByRole('checkbox', { name: 'Puzzle - 900 pièces' });

    await user.click(family);
    expect(family).toBeChecked();
    for (const sub of [plus, minus]) {
      expect(sub).toBeChecked();
      expect(sub).toBeDisabled();
    }
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();

    await user.click(family);
    expect(plus).not.toBeChecked();
    expect(plus).toBeEnabled();
    expect(minus).toBeChecked();
    expect(minus).toBeEnabled();
    // Back to the stored state: nothing to save.
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it('saves the exact payload with If-Match (a checked family sends only family|), then clears the flag', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/exclusions': () =>
        json({ message: 'Les exclusions ont été mises à jour.', version: 10 }),
    });
    const articles = await screen.findByRole('region', { name: 'Famille articles' });
    await user.click(within(articles).getByRole('checkbox', { name: 'PUZZLES' }));
    await user.click(within(articles).getByRole('checkbox', { name: 'ANIMATIONS' }));
    await user.click(within(articles).getByRole('checkbox', { name: 'Chauffage' }));
    const clients = column('Famille clients');
    await user.click(
      within(clients).getByRole('button', { name: "Afficher les sous-familles de Comités d'entreprise" }),
    );
    await user.click(within(clients).getByRole('checkbox', { name: 'Entreprises Etrangères' }));
    await user.click(within(clients).getByRole('checkbox', { name: 'Autres' }));
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (await screen.findAllByText('Les exclusions ont été mises à jour.', { exact: true }))[0],
    ).toBeVisible();
    const [[url, init]] = posts(fetchMock) as [[string, RequestInit]];
    expect(url).toBe('/api/database/exclusions');
    expect((init.headers as Record<string, string>)['If-Match']).toBe('"9"');
    expect(JSON.parse(String(init.body))).toEqual({
      exclusions: [
        { id: 'CHAUFFAGE|', libelle: 'Chauffage', type: 'ItemFamily' },
        { id: 'OLD0001|', libelle: 'Ancienne famille', type: 'ItemFamily' },
        { id: 'PUZZ0001|', libelle: 'PUZZLES', type: 'ItemFamily' },
        { id: 'FCL00001|', libelle: 'Autres', type: 'CustomerFamily' },
        { id: 'GROSSI|', libelle: 'Grossiste', type: 'SupplierFamily' },
      ],
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it('a new sub-family exclusion carries the family and sub-family labels', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/exclusions': () =>
        json({ message: 'Les exclusions ont été mises à jour.', version: 10 }),
    });
    const articles = await screen.findByRole('region', { name: 'Famille articles' });
    await user.click(within(articles).getByRole('button', { name: 'Afficher les sous-familles de PUZZLES' }));
    await user.click(within(articles).getByRole('checkbox', { name: 'Puzzle + 900 pièces' }));
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    const body = JSON.parse(String(posts(fetchMock)[0]?.[1].body)) as { exclusions: unknown[] };
    expect(body.exclusions).toContainEqual({
      id: 'PUZZ0001|SFAR00001',
      libelle: 'PUZZLES\tPuzzle + 900 pièces',
      type: 'ItemFamily',
    });
  });

  it('filters each column on its own, opening a family whose sub-family matches', async () => {
    const user = userEvent.setup();
    show();
    const articles = await screen.findByRole('region', { name: 'Famille articles' });
    await user.type(within(articles).getByRole('searchbox', { name: 'Filtrer famille articles' }), '+ 900');
    expect(within(articles).getByRole('checkbox', { name: 'PUZZLES' })).toBeVisible();
    expect(within(articles).getByRole('checkbox', { name: 'Puzzle + 900 pièces' })).toBeVisible();
    expect(within(articles).queryByRole('checkbox', { name: 'Puzzle - 900 pièces' })).toBeNull();
    expect(within(articles).queryByRole('checkbox', { name: 'ANIMATIONS' })).toBeNull();
    expect(within(column('Famille clients')).getByRole('checkbox', { name: 'Autres' })).toBeVisible();

    await user.clear(within(articles).getByRole('searchbox'));
    await user.type(within(articles).getByRole('searchbox'), 'zzzz');
    expect(within(articles).getByText('Aucune famille ne correspond au filtre.')).toBeVisible();
  });

  it(`renders ${FAMILY_PAGE} families at a time in big lists`, async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 400 }, (_, i) => ({
      id: `F${String(i).padStart(4, '0')}|`,
      libelle: `Famille ${i}`,
      subFamilies: [{ id: `F${i}|S1`, libelle: `Sous-famille ${i}` }],
    }));
    show({}, () => json(lists(many)));
    const articles = await screen.findByRole('region', { name: 'Famille articles' });
    const list = within(articles).getByRole('list', { name: 'Famille articles' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(FAMILY_PAGE);
    expect(within(articles).getByText(`${FAMILY_PAGE} sur 403 affichées`)).toBeVisible();
    await user.click(within(articles).getByRole('button', { name: 'Afficher plus' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(FAMILY_PAGE * 2);
    await user.click(within(articles).getByRole('searchbox'));
    await user.paste('Famille 399');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  }, 20_000);

  it('shows the conflict reload, the server text and the default failure text', async () => {
    const user = userEvent.setup();
    let status = 409;
    show({
      'POST /api/database/exclusions': () =>
        status === 409
          ? json({ message: 'Configuration modifiée entre-temps.', code: 'conflict' }, 409)
          : status === 400
            ? json({ message: "Identifiant attendu : 'famille|' ou 'famille|sous-famille'" }, 400)
            : new Response('', { status, statusText: '' }),
    });
    const articles = await screen.findByRole('region', { name: 'Famille articles' });
    await user.click(within(articles).getByRole('checkbox', { name: 'Chauffage' }));
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Configuration modifiée entre-temps.', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();

    status = 400;
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (
        await screen.findAllByText("Identifiant attendu : 'famille|' ou 'famille|sous-famille'", {
          exact: true,
        })
      )[0],
    ).toBeVisible();

    status = 500;
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des exclusions', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
  });

  it("shows the load error of the family lists with 'Réessayer'", async () => {
    const user = userEvent.setup();
    let fail = true;
    show({}, () => (fail ? json({ message: 'Listes indisponibles' }, 500) : json(lists())));
    expect(await screen.findByText('Listes indisponibles')).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('checkbox', { name: 'ANIMATIONS' })).toBeChecked();
  });
});
