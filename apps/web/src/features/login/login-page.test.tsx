import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { demoDashboard, demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp } from '../../test/render-app.tsx';
import { useAuth } from '../../state/auth/auth-context.ts';
import { Logo } from '../../components/ui/logo.tsx';

const visitor = {
  'GET /api/user': () => json({ message: 'Non authentifié' }, 401),
  'GET /api/dashboard': () => json(demoDashboard),
};

afterEach(() => {
  vi.unstubAllGlobals();
});

const syncIdField = () => screen.getByLabelText('ID de synchronisation');
const clientIdField = () => screen.getByLabelText('ID Client');

describe('login screen', () => {
  it('shows the logo, title, version, prompt and both fields with their placeholders', async () => {
    mockApi(visitor);
    renderApp('/auth');
    const title = await screen.findByRole('heading', { name: 'Synchro', level: 1 });
    expect(title).toBeInTheDocument();
    // The product's logo above the title, in the card; decorative (the title names the product).
    const logo = title.parentElement!.querySelector('svg');
    expect(logo).not.toBeNull();
    expect(logo).toHaveAttribute('aria-hidden', 'true');
    expect(logo!.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const { container: mark, unmount } = render(<Logo />);
    expect(logo!.innerHTML).toBe(mark.querySelector('svg')!.innerHTML);
    unmount();
    // Once, in the card (not repeated in the side panel).
    expect(screen.getAllByText('Version 6.19.4')).toHaveLength(1);
    expect(screen.getByText('Veuillez entrer vos identifiants de connexion')).toBeInTheDocument();
    expect(syncIdField()).toHaveAttribute('placeholder', 'Entrez votre ID synchro');
    expect(clientIdField()).toHaveAttribute('placeholder', 'Entrez votre ID Client');
    expect(clientIdField()).toHaveAttribute('type', 'password');
    expect(clientIdField()).toBeRequired();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
    await waitFor(() => expect(document.title).toBe('Connexion – Synchro'));
  });

  it('upper-cases typed text and strips other characters', async () => {
    mockApi(visitor);
    renderApp('/auth');
    await screen.findByText('Veuillez entrer vos identifiants de connexion');
    await userEvent.type(syncIdField(), 'demo-a_0 01!');
    expect(syncIdField()).toHaveValue('DEMOA001');
    expect(syncIdField()).not.toHaveAttribute('aria-invalid');
  });

  it('prefills both fields from ?syncId=&clientId=', async () => {
    mockApi(visitor);
    renderApp('/auth?syncId=DEMOA001&clientId=s3cret-Client');
    await screen.findByText('Veuillez entrer vos identifiants de connexion');
    expect(syncIdField()).toHaveValue('DEMOA001');
    expect(clientIdField()).toHaveValue('s3cret-Client');
  });

  it('flags an invalid prefilled id with the spec message tied to the field', async () => {
    const fetchMock = mockApi(visitor);
    renderApp('/auth?syncId=demo-1&clientId=x');
    await screen.findByText('Veuillez entrer vos identifiants de connexion');
    const message = screen.getByText(
      "L'ID de synchronisation doit être en majuscules et ne contenir que des lettres et des chiffres",
    );
    expect(syncIdField()).toHaveAttribute('aria-invalid', 'true');
    expect(syncIdField()).toHaveAttribute('aria-describedby', message.id);
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(fetchMock).not.toHaveBeenCalledWith('/api/login', expect.anything());
  });

  it('requires both fields before calling the server', async () => {
    const fetchMock = mockApi(visitor);
    renderApp('/auth');
    await screen.findByText('Veuillez entrer vos identifiants de connexion');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(screen.getByText("L'ID de synchronisation est obligatoire")).toBeInTheDocument();
    expect(clientIdField()).toHaveAccessibleDescription("L'ID Client est obligatoire");
    expect(fetchMock).not.toHaveBeenCalledWith('/api/login', expect.anything());
  });

  it('signs in with the upper-cased id, disables the button while pending, then goes to /', async () => {
    let release: () => void = () => {};
    const fetchMock = mockApi({
      ...visitor,
      'POST /api/login': () => new Promise<Response>((resolve) => (release = () => resolve(json(demoUser)))),
    });
    const { location } = renderApp('/auth?syncId=demoa001');
    await screen.findByText('Veuillez entrer vos identifiants de connexion');
    await userEvent.type(clientIdField(), 'client-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    const button = screen.getByRole('button', { name: 'Se connecter' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    const loginCall = fetchMock.mock.calls.find(([url]) => url === '/api/login')!;
    expect(JSON.parse(loginCall[1]!.body as string)).toEqual({
      username: 'DEMOA001',
      password: 'client-secret',
    });
    release();
    expect(await screen.findByRole('heading', { name: 'Général', level: 1 })).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/');
  });

  it('shows the server message in a destructive toast "Erreur de connexion" and stays', async () => {
    mockApi({
      ...visitor,
      'POST /api/login': () => json({ message: 'Identifiant ou ID Client incorrect' }, 401),
    });
    const { location } = renderApp('/auth?syncId=DEMOA001&clientId=faux');
    await userEvent.click(await screen.findByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Erreur de connexion')).toBeInTheDocument();
    expect(screen.getByText('Identifiant ou ID Client incorrect')).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/auth?syncId=DEMOA001&clientId=faux');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Se connecter' })).toBeEnabled());
  });

  it("falls back to 'Identifiants incorrects' when the server says nothing", async () => {
    mockApi({ ...visitor, 'POST /api/login': () => new Response('', { status: 401, statusText: '' }) });
    renderApp('/auth?syncId=DEMOA001&clientId=faux');
    await userEvent.click(await screen.findByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Identifiants incorrects')).toBeInTheDocument();
  });
});

describe('useAuth', () => {
  it('throws outside its provider', () => {
    const Probe = () => {
      useAuth();
      return null;
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow('useAuth must be used within an AuthProvider');
    vi.mocked(console.error).mockRestore();
  });
});
