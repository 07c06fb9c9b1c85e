import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { demoDashboard, demoUser } from '../test/fixtures.ts';
import { json, mockApi, renderApp } from '../test/render-app.tsx';

const signedIn = {
  'GET /api/user': () => json(demoUser),
  'GET /api/dashboard': () => json(demoDashboard),
};
const signedOut = { 'GET /api/user': () => json({ message: 'Non authentifié' }, 401) };

afterEach(() => {
  vi.unstubAllGlobals();
});

const currentPath = (location: { history?: string[] }) => location.history?.at(-1);

describe('route guard', () => {
  it('shows a spinner while the session loads, then sends a visitor to /auth', async () => {
    let answer: (r: Response) => void = () => {};
    mockApi({ 'GET /api/user': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { location } = renderApp('/planning');
    expect(screen.getByRole('status')).toHaveTextContent('Vérification de la session');
    answer(json({ message: 'Non authentifié' }, 401));
    expect(await screen.findByRole('heading', { name: 'Synchro', level: 1 })).toBeInTheDocument();
    expect(currentPath(location)).toBe('/auth');
  });

  it.each(['/', '/auth'])(
    'on %s, a 5xx or an unreachable server at start says « Failed to fetch user data » with « Réessayer », not the login screen',
    async (path) => {
      let down = true;
      mockApi({
        ...signedIn,
        'GET /api/user': () => (down ? json({ message: 'Erreur interne' }, 502) : json(demoUser)),
      });
      const { location } = renderApp(path);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Failed to fetch user data');
      expect(screen.queryByText('Veuillez entrer vos identifiants de connexion')).toBeNull();
      expect(currentPath(location)).toBe(path);
      down = false;
      await userEvent.click(within(alert).getByRole('button', { name: /Réessayer/ }));
      expect(await screen.findByRole('heading', { name: 'Général', level: 1 })).toBeInTheDocument();
    },
  );

  it('a network failure at start also says so', async () => {
    mockApi({ 'GET /api/user': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/planning');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch user data');
  });

  it('sends a signed-in user from /auth to /', async () => {
    mockApi(signedIn);
    const { location } = renderApp('/auth');
    expect(await screen.findByRole('heading', { name: 'Général', level: 1 })).toBeInTheDocument();
    expect(currentPath(location)).toBe('/');
  });

  it('keeps a visitor on /auth', async () => {
    mockApi(signedOut);
    const { location } = renderApp('/auth');
    expect(await screen.findByText('Veuillez entrer vos identifiants de connexion')).toBeInTheDocument();
    expect(currentPath(location)).toBe('/auth');
  });

  it.each(['/exclusions', '/exclusions/simple'])('redirects %s to /exclusions/family', async (path) => {
    mockApi(signedIn);
    const { location } = renderApp(path);
    expect(
      await screen.findByRole('heading', { name: 'Exclusions de la synchro', level: 1 }),
    ).toBeInTheDocument();
    expect(currentPath(location)).toBe('/exclusions/family');
  });

  it('shows the 404 card with its developer hint for an unknown path', async () => {
    mockApi(signedIn);
    renderApp('/nulle-part');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/avez-vous oublié d'ajouter la page au routeur/)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page introuvable – Synchro'));
  });

  it.each([
    ['/import-history', "Historique d'importation"],
    ['/transaction-logs', 'Trace des transactions'],
  ])('%s shows the screen "%s" and sets the page title', async (path, title) => {
    mockApi(signedIn);
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Cet écran arrive bientôt')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} – Synchro`));
  });

  it.each([
    ['/database', 'Base de données source'],
    ['/external-links', 'Liaisons externes'],
    ['/external-calendars', 'Agendas externes'],
    ['/complement', 'Complément'],
    ['/planning', 'Planification des synchronisations'],
    ['/sync-data', 'Données à synchroniser'],
    ['/terminals', 'Terminaux'],
  ])('%s shows the settings screen "%s" and sets the page title', async (path, title) => {
    mockApi(signedIn);
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Cet écran arrive bientôt')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} – Synchro`));
  });

  it('/debug shows the diagnostic screen (no menu entry) and sets the page title', async () => {
    mockApi(signedIn);
    renderApp('/debug');
    const title = 'Diagnostic XML de Configuration';
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Cet écran arrive bientôt')).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} – Synchro`));
  });
});

describe('shell', () => {
  it('lists the 11 menu entries of the spec in order, then the two history screens, and marks the current one', async () => {
    mockApi(signedIn);
    renderApp('/exclusions/family');
    const nav = await screen.findByRole('navigation', { name: 'Écrans de la console' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Général',
      'Base de données source',
      'Liaisons externes',
      'Agendas externes',
      'Données à synchroniser',
      'Exclusions de la synchro',
      'Complément',
      'Planification',
      'Terminaux',
      "Historique d'importation",
      'Trace des transactions',
      'Historique de la configuration',
      "Journal d'audit",
    ]);
    expect(within(nav).getByRole('link', { name: 'Exclusions de la synchro' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Général' })).not.toHaveAttribute('aria-current');
  });

  it('navigates with the menu and moves the focus to the new screen', async () => {
    mockApi(signedIn);
    const { location } = renderApp('/');
    await userEvent.click(await screen.findByRole('link', { name: 'Terminaux' }));
    expect(await screen.findByRole('heading', { name: 'Terminaux', level: 1 })).toBeInTheDocument();
    expect(currentPath(location)).toBe('/terminals');
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Terminaux' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the software of the licence in the subtitle, and a skip link to the main content', async () => {
    mockApi(signedIn);
    renderApp('/database');
    expect(await screen.findByText('Synchro pour EBP GesCom Open Line')).toBeInTheDocument();
    const skip = screen.getByRole('link', { name: 'Aller au contenu principal' });
    expect(document.getElementById(skip.getAttribute('href')!.slice(1))?.tagName).toBe('MAIN');
  });

  it('falls back to a generic ERP name', async () => {
    mockApi({ ...signedIn, 'GET /api/user': () => json({ ...demoUser, Tablettes: '' }) });
    renderApp('/database');
    expect(await screen.findByText('Synchro pour votre ERP')).toBeInTheDocument();
  });

  it('collapses the sidebar with Ctrl+B and keeps the state in a cookie for 7 days', async () => {
    mockApi(signedIn);
    const cookieSetter = vi.spyOn(document, 'cookie', 'set');
    renderApp('/database');
    const sidebar = await screen.findByRole('complementary', { name: 'Menu principal' });
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    expect(cookieSetter).toHaveBeenLastCalledWith(
      expect.stringMatching(/^sidebar_state=false; path=\/; max-age=604800/),
    );
    expect(screen.getByRole('button', { name: 'Afficher le menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await userEvent.keyboard('{Meta>}b{/Meta}');
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
    cookieSetter.mockRestore();
  });

  it('is an off-canvas sheet under 768 px, closed after a choice', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)',
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    mockApi(signedIn);
    const { location } = renderApp('/database');
    await screen.findByRole('heading', { name: 'Base de données source', level: 1 });
    expect(screen.queryByRole('navigation', { name: 'Écrans de la console' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Afficher le menu' }));
    const sheet = await screen.findByRole('dialog', { name: 'Menu principal' });
    await userEvent.click(within(sheet).getByRole('link', { name: 'Complément' }));
    expect(await screen.findByRole('heading', { name: 'Complément', level: 1 })).toBeInTheDocument();
    expect(currentPath(location)).toBe('/complement');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('starts collapsed when the cookie says so', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    mockApi(signedIn);
    renderApp('/database');
    expect(await screen.findByRole('complementary', { name: 'Menu principal' })).toHaveAttribute(
      'data-state',
      'collapsed',
    );
  });

  it('logs out: POST /api/logout, then the login screen', async () => {
    let signedInNow = true;
    const fetchMock = mockApi({
      ...signedIn,
      'GET /api/user': () => (signedInNow ? json(demoUser) : json({ message: 'Non authentifié' }, 401)),
      'POST /api/logout': () => {
        signedInNow = false;
        return new Response(null, { status: 204 });
      },
    });
    const { location } = renderApp('/database');
    await userEvent.click(await screen.findByRole('button', { name: 'Se déconnecter' }));
    expect(await screen.findByText('Veuillez entrer vos identifiants de connexion')).toBeInTheDocument();
    expect(currentPath(location)).toBe('/auth');
    expect(fetchMock).toHaveBeenCalledWith('/api/logout', expect.objectContaining({ method: 'POST' }));
  });

  it('reports a failed logout in a destructive toast', async () => {
    mockApi({ ...signedIn, 'POST /api/logout': () => json({ message: 'Session introuvable' }, 500) });
    const { location } = renderApp('/database');
    await userEvent.click(await screen.findByRole('button', { name: 'Se déconnecter' }));
    expect(await screen.findByText('Erreur de déconnexion')).toBeInTheDocument();
    expect(screen.getByText('Session introuvable')).toBeInTheDocument();
    expect(currentPath(location)).toBe('/database');
  });

  it('shows the server IP in an alert dialog', async () => {
    mockApi({ ...signedIn, 'GET /api/server-ip': () => json({ ip: '203.0.113.7' }) });
    renderApp('/database');
    await userEvent.click(await screen.findByRole('button', { name: 'IP du serveur' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Adresse IP du serveur' });
    expect(await within(dialog).findByText('203.0.113.7')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fermer' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it("says when the server IP is its network card's (no PUBLIC_IP): it may differ behind a NAT", async () => {
    mockApi({ ...signedIn, 'GET /api/server-ip': () => json({ ip: '10.1.2.3', source: 'interface' }) });
    renderApp('/database');
    await userEvent.click(await screen.findByRole('button', { name: 'IP du serveur' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Adresse IP du serveur' });
    expect(await within(dialog).findByText('10.1.2.3')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Adresse IP du serveur de la console : 10.1.2.3');
    expect(dialog).toHaveTextContent('Derrière un routeur (NAT), son adresse publique peut être différente');
  });

  it('says when the server IP cannot be read', async () => {
    mockApi({ ...signedIn, 'GET /api/server-ip': () => json({ message: 'PUBLIC_IP non configurée' }, 503) });
    renderApp('/database');
    await userEvent.click(await screen.findByRole('button', { name: 'IP du serveur' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      await within(dialog).findByText("Impossible de récupérer l'adresse IP du serveur"),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('PUBLIC_IP non configurée')).toBeInTheDocument();
  });
});
