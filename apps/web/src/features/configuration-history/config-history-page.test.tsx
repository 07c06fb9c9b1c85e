import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TConfigChanges, TConfigHistoryPage, TConfigVersionRow } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { PARIS } from '../../test/history-fixtures.ts';
import { json, mockApi, renderApp, renderWithProviders, type Handler } from '../../test/render-app.tsx';
import { RestoreDialog } from './restore-dialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function row(version: number, patch: Partial<TConfigVersionRow> = {}): TConfigVersionRow {
  return {
    version,
    at: '2025-11-14T08:12:00.000Z',
    author: 'user',
    address: '192.0.2.10',
    sections: ['planifications'],
    summary: ['Planification\u00a0: 2\u00a0plannings ajoutés, 1\u00a0supprimé'],
    current: false,
    restorable: true,
    connectorAfter: null,
    ...patch,
  };
}

function page(versions: TConfigVersionRow[], currentVersion = 12): TConfigHistoryPage {
  return {
    versions,
    pagination: {
      page: 1,
      pageSize: 25,
      total: versions.length,
      totalPages: 1,
      totalExact: true,
      hasPrevious: false,
      hasNext: false,
      nextCursor: null,
      previousCursor: null,
    },
    displayTimeZone: PARIS,
    currentVersion,
    retention: { keep: 50, maxAgeDays: 90, maxBytes: 256 * 1024 * 1024 },
  };
}

const changes: TConfigChanges = {
  version: 12,
  against: 'previous',
  otherVersion: 9,
  sections: [
    {
      section: 'sources',
      label: 'Base de données source',
      summary: 'Base de données source\u00a0: connexion 1 modifiée',
      fields: [
        { label: 'Connexion 1 — Serveur', before: 'SRV-A', after: 'SRV-B', secret: false, changed: true },
        { label: 'Connexion 1 — Mot de passe', before: null, after: null, secret: true, changed: true },
      ],
    },
  ],
};

function show(handlers: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/configuration-history': (_i, url) =>
      json(
        new URL(url, 'http://x').searchParams.get('connector') === '1'
          ? page([
              row(12, {
                author: 'connector',
                address: null,
                sections: [],
                summary: ['Dernière synchronisation'],
                restorable: false,
                current: true,
              }),
            ])
          : page([
              row(12, {
                current: true,
                connectorAfter: {
                  count: 96,
                  from: '2025-11-13T08:00:00.000Z',
                  to: '2025-11-14T07:45:00.000Z',
                },
              }),
              row(9, {
                author: 'restore',
                address: '192.0.2.11',
                sections: ['sources'],
                summary: ['Base de données source\u00a0: connexion 1 modifiée'],
              }),
            ]),
      ),
    ...handlers,
  });
  renderApp('/configuration-history');
  return fetchMock;
}

describe('Historique de la configuration', () => {
  it('lists versions with author, time, sections, summary; the connector folded, then shown', async () => {
    const fetchMock = show();
    const newest = await screen.findByRole('article', { name: 'Version 12' }, { timeout: 15_000 });
    expect(newest).toHaveTextContent('Console (192.0.2.10)');
    expect(newest).toHaveTextContent('Version actuelle');
    expect(newest).toHaveTextContent('14/11/2025 09:12 (UTC+1)');
    expect(newest).toHaveTextContent('Planification : 2 plannings ajoutés, 1 supprimé');
    expect(within(newest).queryByRole('button', { name: /Restaurer/ })).toBeNull();
    expect(screen.getByRole('article', { name: 'Version 9' })).toHaveTextContent('Restauration');
    expect(screen.getByText(/^96\smises à jour du connecteur$/)).toBeInTheDocument();
    expect(screen.getByText(/Sont conservées les 50 dernières versions/)).toBeVisible();
    expect(screen.getByText(/90 jours au plus et dans la limite de 256 Mo enregistrés ;/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Afficher' }));
    expect(await screen.findByText('Dernière synchronisation')).toBeVisible();
    expect(screen.getByLabelText('Afficher les mises à jour du connecteur')).toBeChecked();
    const urls = fetchMock.mock.calls
      .map(([u]) => String(u))
      .filter((u) => u.startsWith('/api/configuration-history'));
    expect(urls.at(-1)).toContain('connector=1');
  });

  it('« Voir les changements »: fields before and after, a password only « modifié »', async () => {
    show({ 'GET /api/configuration-history/12/changes': () => json(changes) });
    await userEvent.click(
      await screen.findByRole(
        'button',
        { name: 'Voir les changements de la version 12' },
        { timeout: 15_000 },
      ),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Changements de la version 12' });
    expect(await within(dialog).findByRole('row', { name: /Connexion 1 — Serveur/ })).toHaveTextContent(
      'SRV-ASRV-B',
    );
    expect(within(dialog).getByRole('row', { name: /Mot de passe/ })).toHaveTextContent(
      'Mot de passe modifié',
    );
    expect(dialog).toHaveTextContent('Par rapport à la version précédente (version 9).');
  });

  it('« Restaurer »: the differing sections ticked, sent with If-Match of the current version; a 409 said', async () => {
    let sent: { body: unknown; ifMatch: string | null } | null = null;
    show({
      'GET /api/configuration-history/9/changes': () =>
        json({ ...changes, version: 9, against: 'current', otherVersion: 12 }),
      'POST /api/configuration-history/9/restore': (init) => {
        sent = { body: JSON.parse(String(init.body)), ifMatch: new Headers(init.headers).get('If-Match') };
        return json({ message: 'La configuration a été modifiée depuis…', code: 'conflict' }, 409);
      },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Restaurer la version 9' }, { timeout: 15_000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restaurer la version 9' });
    const box = await within(dialog).findByRole('checkbox', { name: 'Base de données source' });
    expect(box).toBeChecked();
    expect(dialog).toHaveTextContent('Connexion 1 — Serveur : SRV-B → SRV-A');
    await userEvent.click(within(dialog).getByRole('button', { name: /^Restaurer la section/ }));
    await waitFor(() => expect(sent).toEqual({ body: { sections: ['sources'] }, ifMatch: '"12"' }));
    expect(await screen.findByText('Restauration impossible')).toBeVisible();
    expect(screen.getByText('La configuration a été modifiée depuis…')).toBeVisible();
  });

  it('« Restaurer » sends the version seen when the dialog opened, even if the screen refreshed to a newer one meanwhile', async () => {
    let ifMatch: string | null = null;
    mockApi({
      'GET /api/configuration-history/9/changes': () =>
        json({ ...changes, version: 9, against: 'current', otherVersion: 12 }),
      'POST /api/configuration-history/9/restore': (init) => {
        ifMatch = new Headers(init.headers).get('If-Match');
        return json({ message: 'La configuration a été modifiée depuis…', code: 'conflict' }, 409);
      },
    });
    const view = renderWithProviders(
      <RestoreDialog row={row(9)} currentVersion={12} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restaurer la version 9' });
    await within(dialog).findByRole('checkbox', { name: 'Base de données source' });
    // A connector write: the screen now shows version 13, the dialog still the changes against 12.
    view.rerender(<RestoreDialog row={row(9)} currentVersion={13} onClose={() => undefined} />);
    await userEvent.click(within(dialog).getByRole('button', { name: /^Restaurer la section/ }));
    await waitFor(() => expect(ifMatch).toBe('"12"'));
  });
});
