import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderWithProviders } from '../../test/render-app.tsx';
import { useUnsavedChanges } from './use-unsaved-changes.ts';

// Browser Back/Forward with the real router on jsdom's real History API (no memory location).

const wait = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

/**
 * history.go(delta), then lets jsdom fire its popstate and React render. jsdom runs a traversal as
 * three chained 0 ms tasks: waiting a fixed time can end before the chain on a loaded machine, so
 * the wait takes task turns behind it (each of ours is queued after the chain's next one).
 */
async function traverse(delta: number) {
  await act(async () => {
    window.history.go(delta);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

const path = () => window.location.pathname;

let mounts: Record<string, number> = {};

function Page({ name }: { name: string }) {
  useEffect(() => {
    mounts[name] = (mounts[name] ?? 0) + 1;
  }, [name]);
  return <h1>{name}</h1>;
}

function Editor() {
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty);
  useEffect(() => {
    mounts.Éditeur = (mounts.Éditeur ?? 0) + 1;
  }, []);
  return (
    <div>
      <h1>Éditeur</h1>
      <button type="button" onClick={() => setDirty(true)}>
        Modifier
      </button>
    </div>
  );
}

function Harness() {
  return (
    <>
      <Link href="/a">Aller en A</Link>
      <Link href="/edit">Aller à l'éditeur</Link>
      <Link href="/b">Aller en B</Link>
      <Switch>
        <Route path="/edit" component={Editor} />
        <Route path="/a">
          <Page name="Page A" />
        </Route>
        <Route path="/b">
          <Page name="Page B" />
        </Route>
      </Switch>
    </>
  );
}

function setup(start: string) {
  window.history.replaceState(null, '', start);
  mockApi({ 'GET /api/user': () => json(demoUser) });
  renderWithProviders(<Harness />);
}

/** Clicks a link, then waits out the 200 ms navigation debounce. */
async function go(name: string) {
  await userEvent.click(screen.getByRole('link', { name }));
  await wait(210);
}

async function makeDirty() {
  await userEvent.click(screen.getByRole('button', { name: 'Modifier' }));
  await wait(60);
}

const dialog = () => screen.queryByRole('alertdialog', { name: 'Modifications non sauvegardées' });

beforeEach(() => {
  mounts = {};
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('unsaved-changes guard: browser Back/Forward', () => {
  it('lets Back and Forward through when nothing is dirty', async () => {
    setup('/a');
    await go("Aller à l'éditeur");
    await traverse(-1);
    expect(path()).toBe('/a');
    expect(screen.getByRole('heading', { name: 'Page A' })).toBeInTheDocument();
    await traverse(1);
    expect(path()).toBe('/edit');
    expect(screen.getByRole('heading', { name: 'Éditeur' })).toBeInTheDocument();
    expect(dialog()).not.toBeInTheDocument();
  });

  it('Back while dirty: the URL comes back at once, the other screen never renders, the dialog asks', async () => {
    setup('/a');
    await go("Aller à l'éditeur");
    await makeDirty();
    const pageAMounts = mounts['Page A'];
    // The router's own popstate listener (a plain one on window) never hears of it.
    const routerListener = vi.fn();
    window.addEventListener('popstate', routerListener);
    await traverse(-1);
    window.removeEventListener('popstate', routerListener);
    expect(routerListener).not.toHaveBeenCalled();
    expect(path()).toBe('/edit');
    expect(
      await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' }),
    ).toHaveAccessibleDescription(
      'Vous avez des modifications non sauvegardées. Voulez-vous quitter cette page sans sauvegarder\u202f?',
    );
    expect(mounts['Page A']).toBe(pageAMounts);
    expect(mounts.Éditeur).toBe(1);
    // (Behind the modal dialog, hidden from the accessibility tree.)
    expect(screen.getByRole('heading', { name: 'Éditeur', hidden: true })).toBeInTheDocument();

    // Annuler: stays, still dirty: the next Back asks again.
    await userEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());
    expect(path()).toBe('/edit');
    await wait(210);
    await traverse(-1);
    expect(path()).toBe('/edit');
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();

    // Quitter sans sauvegarder: performs the Back.
    await userEvent.click(screen.getByRole('button', { name: 'Quitter sans sauvegarder' }));
    await waitFor(() => expect(path()).toBe('/a'));
    expect(await screen.findByRole('heading', { name: 'Page A' })).toBeInTheDocument();
    expect(dialog()).not.toBeInTheDocument();
    expect(mounts.Éditeur).toBe(1);

    // The screen that was left is the next entry: Forward returns to it (clean again).
    await traverse(1);
    expect(path()).toBe('/edit');
    expect(screen.getByRole('heading', { name: 'Éditeur' })).toBeInTheDocument();
    expect(dialog()).not.toBeInTheDocument();
  });

  it('Forward while dirty asks too, and confirming goes forward', async () => {
    setup('/edit');
    await go('Aller en B');
    await traverse(-1);
    expect(path()).toBe('/edit');
    await makeDirty();
    const pageBMounts = mounts['Page B'];
    await traverse(1);
    expect(path()).toBe('/edit');
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
    expect(mounts['Page B']).toBe(pageBMounts);
    await userEvent.click(screen.getByRole('button', { name: 'Quitter sans sauvegarder' }));
    await waitFor(() => expect(path()).toBe('/b'));
    expect(await screen.findByRole('heading', { name: 'Page B' })).toBeInTheDocument();
  });

  it('repeated presses while the dialog is open are undone and keep one dialog; confirming goes one step', async () => {
    setup('/a');
    await go('Aller en B');
    await go("Aller à l'éditeur");
    await makeDirty();
    await traverse(-1);
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
    await traverse(-1);
    await traverse(-1);
    expect(path()).toBe('/edit');
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Éditeur', hidden: true })).toBeInTheDocument();
    expect(mounts.Éditeur).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: 'Quitter sans sauvegarder' }));
    await waitFor(() => expect(path()).toBe('/b'));
    expect(await screen.findByRole('heading', { name: 'Page B' })).toBeInTheDocument();
    // The entries before are intact.
    await traverse(-1);
    expect(path()).toBe('/a');
  });

  it('a Back within 200 ms of the previous navigation is undone and ignored (no dialog)', async () => {
    setup('/a');
    await go("Aller à l'éditeur");
    await makeDirty();
    // The guard's clock, frozen so that "within 200 ms" does not depend on the machine's speed.
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    await traverse(-1);
    await userEvent.click(await screen.findByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());
    now += 150;
    await traverse(-1);
    expect(path()).toBe('/edit');
    expect(dialog()).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Éditeur' })).toBeInTheDocument();
    now += 250;
    await traverse(-1);
    expect(path()).toBe('/edit');
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
  });

  it('a change of fragment only (skip link, anchors) is not a navigation', async () => {
    setup('/edit');
    await makeDirty();
    act(() => window.history.pushState(null, '', '/edit#contenu'));
    await traverse(-1);
    expect(window.location.href).toMatch(/\/edit$/);
    expect(dialog()).not.toBeInTheDocument();
  });

  it('a link while dirty still asks, and Back while that dialog is open keeps it', async () => {
    setup('/a');
    await go("Aller à l'éditeur");
    await makeDirty();
    await userEvent.click(screen.getByRole('link', { name: 'Aller en B' }));
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
    await traverse(-1);
    expect(path()).toBe('/edit');
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Quitter sans sauvegarder' }));
    await waitFor(() => expect(path()).toBe('/b'));
  });
});
