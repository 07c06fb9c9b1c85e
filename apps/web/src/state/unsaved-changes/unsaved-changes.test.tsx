import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderWithRouter } from '../../test/render-app.tsx';
import { useUnsavedChanges } from './use-unsaved-changes.ts';
import { useNavigationGuard } from './unsaved-changes-context.ts';

const wait = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

function Editor() {
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty);
  return (
    <div>
      <h1>Éditeur</h1>
      <button type="button" onClick={() => setDirty(true)}>
        Modifier
      </button>
      <button type="button" onClick={() => setDirty(false)}>
        Enregistrer
      </button>
    </div>
  );
}

function Harness() {
  const [, navigate] = useLocation();
  const { requestNavigation } = useNavigationGuard();
  const [loggedOut, setLoggedOut] = useState(false);
  return (
    <>
      <Link href="/edit">Aller à l'éditeur</Link>
      <Link href="/a">Aller en A</Link>
      <Link href="/b">Aller en B</Link>
      <button type="button" onClick={() => navigate('/b')}>
        Naviguer par code
      </button>
      <button type="button" onClick={() => requestNavigation(() => setLoggedOut(true))}>
        Déconnexion
      </button>
      {loggedOut ? <p>Déconnecté</p> : null}
      <Switch>
        <Route path="/edit" component={Editor} />
        <Route path="/a">
          <h1>Page A</h1>
        </Route>
        <Route path="/b">
          <h1>Page B</h1>
        </Route>
      </Switch>
    </>
  );
}

function setup(path = '/edit') {
  mockApi({ 'GET /api/user': () => json(demoUser) });
  return renderWithRouter(<Harness />, path);
}

const TITLE = 'Modifications non sauvegardées';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('unsaved-changes guard', () => {
  it('lets navigation through when nothing is dirty', async () => {
    const { location } = setup();
    await userEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(screen.getByRole('heading', { name: 'Page A' })).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/a');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('asks before leaving unsaved changes; Annuler stays on the page', async () => {
    const { location } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    await wait(60);
    await userEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    const dialog = await screen.findByRole('alertdialog', { name: TITLE });
    expect(dialog).toHaveAccessibleDescription(
      'Vous avez des modifications non sauvegardées. Voulez-vous quitter cette page sans sauvegarder\u202f?',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Éditeur' })).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/edit');
  });

  it('Quitter sans sauvegarder navigates and clears the flag', async () => {
    const { location } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    await wait(60);
    await userEvent.click(screen.getByRole('button', { name: 'Naviguer par code' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Quitter sans sauvegarder' }));
    expect(await screen.findByRole('heading', { name: 'Page B' })).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/b');
    await wait(210);
    await userEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(screen.getByRole('heading', { name: 'Page A' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('guards other actions such as the logout', async () => {
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    await wait(60);
    await userEvent.click(screen.getByRole('button', { name: 'Déconnexion' }));
    expect(screen.queryByText('Déconnecté')).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Quitter sans sauvegarder' }));
    expect(screen.getByText('Déconnecté')).toBeInTheDocument();
  });

  it('debounces the dirty flag by 50 ms', async () => {
    setup();
    // Within 50 ms of the edit the guard does not know yet (synchronous clicks).
    fireEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    fireEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Page A' })).toBeInTheDocument();
  });

  it('a save clears the flag (after the same 50 ms)', async () => {
    const { location } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    await wait(60);
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await wait(60);
    await userEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/a');
  });

  it('ignores a navigation within 200 ms of the previous one', async () => {
    const { location } = setup('/a');
    fireEvent.click(screen.getByRole('link', { name: 'Aller en B' }));
    fireEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(location.history?.at(-1)).toBe('/b');
    await wait(210);
    await userEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(location.history?.at(-1)).toBe('/a');
  });

  it('a link to the screen shown is not a navigation: the next click within 200 ms goes through', async () => {
    const { location } = setup('/a');
    fireEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    fireEvent.click(screen.getByRole('link', { name: 'Aller en B' }));
    expect(location.history).toEqual(['/a', '/b']);
    expect(screen.getByRole('heading', { name: 'Page B' })).toBeInTheDocument();
  });

  it('while dirty, a link to the screen shown does not ask, and leaving right after still does', async () => {
    const { location } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    await wait(60);
    fireEvent.click(screen.getByRole('link', { name: "Aller à l'éditeur" }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Aller en A' }));
    expect(await screen.findByRole('alertdialog', { name: TITLE })).toBeInTheDocument();
    expect(location.history).toEqual(['/edit']);
  });

  it('warns before the tab is closed while dirty, not otherwise', async () => {
    setup();
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
    await wait(60);
    const dirty = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
  });
});
