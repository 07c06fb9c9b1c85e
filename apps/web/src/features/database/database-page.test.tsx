import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TSourcesResponse } from '@synchro/contracts';
import { SECRET_PLACEHOLDER } from '@synchro/contracts/constants';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { NO_PROVIDER_VALUE, providerOptions } from './providers.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const empty = {
  Provider: '',
  Serveur: '',
  Nom_BDD: '',
  Lecture_Seule: false,
  Utilisateur: '',
  MDP: '',
  Status: null,
  StatusLibelle: '',
};

const view: TSourcesResponse = {
  version: 7,
  data: {
    sources: [
      {
        Provider: 'SQLOLEDB',
        Serveur: 'SRV-SQL\\EBP',
        Nom_BDD: 'GESCOM',
        Lecture_Seule: false,
        Utilisateur: 'sa',
        MDP: SECRET_PLACEHOLDER,
        Status: 1,
        StatusLibelle: 'Connexion réussie',
      },
      {
        Provider: 'MSDASQL',
        Serveur: 'DSN=Compta',
        Nom_BDD: '',
        Lecture_Seule: true,
        Utilisateur: '',
        MDP: '',
        Status: 0,
        StatusLibelle: 'Échec de connexion',
      },
      empty,
      empty,
    ],
  },
};

function show(extra: Record<string, Handler> = {}) {
  let current = view;
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/sources': () => json(current),
    ...extra,
  });
  renderApp('/database');
  return {
    fetchMock,
    setView: (v: TSourcesResponse) => {
      current = v;
    },
  };
}

const block = async (n: number) => screen.findByRole('region', { name: `Connexion ${n}` });

function lastPost(fetchMock: ReturnType<typeof mockApi>) {
  const call = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').at(-1);
  if (!call) throw new Error('no POST');
  const init = call[1] as RequestInit;
  return {
    url: call[0],
    body: JSON.parse(String(init.body)),
    headers: init.headers as Record<string, string>,
  };
}

describe('Base de données source', () => {
  it('offers the eight providers of the spec, display text and stored value', () => {
    // docs/spec-notes.md, Web: Base de données source ('' is held by the select as NO_PROVIDER_VALUE).
    expect(providerOptions('')).toEqual([
      { label: 'Pas de connexion', value: NO_PROVIDER_VALUE },
      { label: 'CLOUD POUR VERSION SAAS', value: 'CLOUD' },
      { label: 'ODBC 32/64 bits', value: 'MSDASQL' },
      { label: 'OLE DB POUR SQL Server', value: 'SQLOLEDB' },
      { label: 'OLE DB POUR Access 97', value: 'Microsoft.Jet.OLEDB.3.51' },
      { label: 'OLE DB POUR Access 2000', value: 'Microsoft.Jet.OLEDB.4.0' },
      { label: 'Natif HFSQL C/S', value: 'WinDevClientServeurHF' },
      { label: 'Natif HFSQL Classic', value: 'WinDevHF7' },
    ]);
    expect(NO_PROVIDER_VALUE).not.toBe('');
  });

  it('offers a stored provider outside the list as it is', () => {
    expect(providerOptions('SQLOLEDB')).toHaveLength(8);
    expect(providerOptions('ORAOLEDB').at(-1)).toEqual({
      label: 'ORAOLEDB (valeur enregistrée)',
      value: 'ORAOLEDB',
    });
  });

  it('shows the four blocks with their values and connection states', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Base de données source', level: 1 })).toBeVisible();
    const one = await block(1);
    expect(within(one).getByRole('combobox', { name: /^Provider/ })).toHaveTextContent(
      'OLE DB POUR SQL Server',
    );
    expect(within(one).getByLabelText('Serveur')).toHaveValue('SRV-SQL\\EBP');
    expect(within(one).getByLabelText('Base de données')).toHaveValue('GESCOM');
    expect(within(one).getByLabelText('Utilisateur')).toHaveValue('sa');
    expect(within(one).getByRole('switch', { name: 'Lecture seule' })).not.toBeChecked();
    const password = within(one).getByLabelText('Mot de passe');
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    expect(password).toHaveAttribute('type', 'password');
    expect(within(one).getByText('Connectée')).toBeVisible();
    // The fields in the spec's order (also the keyboard's).
    const controls = [
      within(one).getByRole('combobox', { name: /^Provider/ }),
      within(one).getByLabelText('Serveur'),
      within(one).getByRole('switch', { name: 'Lecture seule' }),
      within(one).getByLabelText('Base de données'),
      within(one).getByLabelText('Utilisateur'),
      password,
    ];
    for (let i = 1; i < controls.length; i++)
      expect(
        controls[i - 1]!.compareDocumentPosition(controls[i]!) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();

    const two = await block(2);
    expect(within(two).getByText('Échec de connexion')).toBeVisible();
    expect(within(two).getByRole('switch', { name: 'Lecture seule' })).toBeChecked();
    const four = await block(4);
    expect(within(four).getByRole('combobox', { name: /^Provider/ })).toHaveTextContent('Pas de connexion');
    expect(within(four).queryByText('Connectée')).not.toBeInTheDocument();
  });

  it('marks edits as unsaved and guards leaving the screen', async () => {
    const user = userEvent.setup();
    show();
    const one = await block(1);
    await user.type(within(one).getByLabelText('Serveur'), '2');
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await new Promise((r) => setTimeout(r, 80));
    await user.click(screen.getByRole('link', { name: 'Général' }));
    expect(await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' })).toBeVisible();
  });

  it('a failed logout leaves the edits guarded: leaving afterwards still asks', async () => {
    const user = userEvent.setup();
    show({ 'POST /api/logout': () => json({ message: 'Session introuvable' }, 500) });
    await user.type(within(await block(1)).getByLabelText('Serveur'), '2');
    await new Promise((r) => setTimeout(r, 80));
    await user.click(screen.getByRole('button', { name: 'Se déconnecter' }));
    await user.click(await screen.findByRole('button', { name: 'Quitter sans sauvegarder' }));
    expect(await screen.findByText('Erreur de déconnexion')).toBeVisible();
    expect(within(await block(1)).getByLabelText('Serveur')).toHaveValue('SRV-SQL\\EBP2');
    await new Promise((r) => setTimeout(r, 210));
    await user.click(screen.getByRole('link', { name: 'Général' }));
    expect(await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' })).toBeVisible();
  });

  it('saves the exact payload with If-Match, keeps the stored password, then clears the flag', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show({
      'POST /api/database/sources': () =>
        json({ message: 'Les paramètres de connexion ont été sauvegardés', version: 8 }),
    });
    const one = await block(1);
    await user.clear(within(one).getByLabelText('Base de données'));
    await user.type(within(one).getByLabelText('Base de données'), 'GESCOM2');
    const four = await block(4);
    await user.click(within(four).getByRole('switch', { name: 'Lecture seule' }));
    await user.click(within(four).getByRole('combobox', { name: /^Provider/ }));
    await user.click(await screen.findByRole('option', { name: 'Natif HFSQL C/S' }));
    await user.type(within(four).getByLabelText('Mot de passe'), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (await screen.findAllByText('Les paramètres de connexion ont été sauvegardés', { exact: true }))[0],
    ).toBeVisible();
    const post = lastPost(fetchMock);
    expect(post.url).toBe('/api/database/sources');
    expect(post.headers['If-Match']).toBe('"7"');
    expect(post.body).toEqual({
      sources: [
        {
          Provider: 'SQLOLEDB',
          Serveur: 'SRV-SQL\\EBP',
          Nom_BDD: 'GESCOM2',
          Lecture_Seule: false,
          Utilisateur: 'sa',
          MDP: SECRET_PLACEHOLDER,
        },
        {
          Provider: 'MSDASQL',
          Serveur: 'DSN=Compta',
          Nom_BDD: '',
          Lecture_Seule: true,
          Utilisateur: '',
          MDP: '',
        },
        { Provider: '', Serveur: '', Nom_BDD: '', Lecture_Seule: false, Utilisateur: '', MDP: '' },
        {
          Provider: 'WinDevClientServeurHF',
          Serveur: '',
          Nom_BDD: '',
          Lecture_Seule: true,
          Utilisateur: '',
          MDP: 's3cret',
        },
      ],
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it('goes back to the stored password, or clears it', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show({
      'POST /api/database/sources': () => json({ message: 'ok', version: 8 }),
    });
    const one = await block(1);
    await user.type(within(one).getByLabelText('Mot de passe'), 'x');
    await user.click(within(one).getByRole('button', { name: /^Conserver l'actuel/ }));
    expect(within(one).getByLabelText('Mot de passe')).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument();
    await user.click(within(one).getByRole('button', { name: /^Effacer/ }));
    expect(within(one).getByText(/sera supprimé/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(lastPost(fetchMock).body.sources[0].MDP).toBe(''));
  });

  it('says beside the password that a changed destination needs it typed again, and shows the refusal', async () => {
    const user = userEvent.setup();
    const refusal =
      "Connexion 1\u00a0: Serveur a changé, saisissez à nouveau le mot de passe. Un mot de passe enregistré n'est jamais envoyé vers une autre destination. Rien n'a été enregistré.";
    show({ 'POST /api/database/sources': () => json({ message: refusal, code: 'secret-destination' }, 400) });
    const one = await block(1);
    const password = within(one).getByLabelText('Mot de passe');
    const hint =
      "Serveur a changé\u00a0: saisissez à nouveau le mot de passe. Un mot de passe enregistré n'est jamais envoyé vers une autre destination.";
    expect(within(one).queryByText(hint)).not.toBeInTheDocument();
    expect(password).not.toHaveAttribute('aria-invalid');

    await user.type(within(one).getByLabelText('Serveur'), '-2');
    // testing-library reads a non-breaking space as a space: found flat, compared exactly.
    const shown = within(one).getByText(hint.replace(/\u00a0/g, ' '));
    expect(shown).toBeVisible();
    expect(shown.textContent).toBe(hint);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password.getAttribute('aria-describedby')).toContain(shown.id);
    await user.type(within(one).getByLabelText('Base de données'), 'X');
    expect(within(one).getByText(/^Serveur et Base de données ont changé : saisissez/)).toBeVisible();
    // No hint on a block without a stored password.
    await user.type(within(await block(2)).getByLabelText('Serveur'), 'X');
    expect(within(await block(2)).queryByText(/ont? changé/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Valider' }));
    const message = (await screen.findAllByText(refusal.replace(/\u00a0/g, ' '), { exact: true }))[0];
    expect(message).toBeVisible();
    expect(message?.textContent).toBe(refusal);

    // Typing the password again (or going back to the stored destination) removes the hint.
    await user.type(within(one).getByLabelText('Mot de passe'), 'nouveau');
    expect(within(one).queryByText(/ont changé/)).not.toBeInTheDocument();
    expect(within(one).getByLabelText('Mot de passe')).not.toHaveAttribute('aria-invalid');
  });

  it('shows the conflict message and reloads on demand, dropping the edits', async () => {
    const user = userEvent.setup();
    const conflict =
      "La configuration a été modifiée depuis l'ouverture de cet écran (par le connecteur ou un autre onglet).";
    const { setView } = show({
      'POST /api/database/sources': () => json({ message: conflict, code: 'conflict' }, 409),
    });
    const one = await block(1);
    await user.type(within(one).getByLabelText('Serveur'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect((await screen.findAllByText('Erreur de sauvegarde', { exact: true }))[0]).toBeVisible();
    expect(screen.getAllByText(conflict, { exact: true })[0]).toBeVisible();
    setView({ ...view, version: 9, data: { sources: [{ ...view.data.sources[0]!, Serveur: 'AUTRE' }] } });
    await user.click(screen.getByRole('button', { name: 'Recharger' }));
    await waitFor(async () => expect(within(await block(1)).getByLabelText('Serveur')).toHaveValue('AUTRE'));
    expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument();
  });

  it('shows the server message, or the default text, when the save fails', async () => {
    const user = userEvent.setup();
    show({ 'POST /api/database/sources': () => new Response('', { status: 500, statusText: '' }) });
    await user.type(within(await block(1)).getByLabelText('Serveur'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des sources de données', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
  });

  it("says the default text, not the browser's English, when the server cannot be reached", async () => {
    const user = userEvent.setup();
    show({
      'POST /api/database/sources': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await user.type(within(await block(1)).getByLabelText('Serveur'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des sources de données', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.queryByText(/Failed to fetch/)).not.toBeInTheDocument();
  });

  it('offers to retry when the section cannot be read', async () => {
    const user = userEvent.setup();
    let fail = true;
    mockApi({
      'GET /api/user': () => json(demoUser),
      'GET /api/config/sources': () => (fail ? json({ message: 'Base indisponible' }, 503) : json(view)),
    });
    renderApp('/database');
    expect(await screen.findByText('Base indisponible')).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await block(1)).toBeVisible();
  });
});
