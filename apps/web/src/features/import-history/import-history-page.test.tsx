import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TSyncHistoryPage, TSyncHistoryRow } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { historyPage, historyRow } from '../../test/history-fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { HISTORY_TEXT } from './history-messages.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type FetchMock = ReturnType<typeof mockApi>;

/** The URLs of the list requests, in order. */
const listCalls = (fetchMock: FetchMock) =>
  fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith('/api/sync-history?'));

const lastListQuery = (fetchMock: FetchMock) => {
  const calls = listCalls(fetchMock);
  return new URLSearchParams(calls[calls.length - 1]!.split('?')[1]);
};

function show(list: Handler | TSyncHistoryPage, extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/sync-history': typeof list === 'function' ? list : () => json(list),
    ...extra,
  });
  const view = renderApp('/import-history');
  return { fetchMock, ...view };
}

/** A list answering each page number with its own rows (3 pages, 60 rows). */
function threePages(): Handler {
  return (_init, url) => {
    const page = Number(new URL(url, 'http://x').searchParams.get('page'));
    const rows = Array.from({ length: page === 3 ? 10 : 25 }, (_, i) => historyRow((page - 1) * 25 + i));
    return json(historyPage(rows, { page, total: 60, totalPages: 3 }));
  };
}

const table = () => screen.findByRole('table', { name: 'Enregistrements importés' }, { timeout: 15_000 });
const rowOf = async (reference: string) =>
  (await screen.findByRole('cell', { name: reference })).closest('tr')!;

describe('Historique d’importation: the list', () => {
  it('shows the title, the version label, the notice with the offset and the seven columns', async () => {
    const { fetchMock } = show(
      historyPage([historyRow(0), historyRow(1, { Etat: -1, TypeElement: 'Modification' })]),
    );
    expect(
      await screen.findByRole('heading', { name: "Historique d'importation", level: 1 }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe("Historique d'importation – Synchro"));
    expect(screen.getByText('Version 6.16.26')).toBeInTheDocument();
    const notice = screen.getByRole('note', { name: 'Fuseau horaire' });
    await waitFor(() => expect(notice).toHaveTextContent('Europe/Paris'));
    expect(notice).toHaveTextContent('UTC+1');
    expect(within(notice).getByRole('link', { name: 'Planification' })).toHaveAttribute('href', '/planning');

    const grid = await table();
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Traité',
      'Actions',
      "Type d'élément",
      'Référence',
      'Date/Heure Export',
      'Nb Lignes',
      'Type Traitement',
    ]);
    const cells = within(await rowOf('XX_1000'))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // 08:12:07 UTC is 09:12:07 in Paris: shown in the answer's zone, no other shift.
    expect(cells.slice(2)).toEqual(['DocumentDEVIS', 'XX_1000', '14/11/2025 09:12:07', '3', 'Création']);
    expect(within(await rowOf('XX_1001')).getByRole('button', { name: /^Erreur/ })).toBeInTheDocument();

    const query = lastListQuery(fetchMock);
    expect(Object.fromEntries(query)).toEqual({ page: '1', pageSize: '25', errorOnly: 'false' });
    expect(screen.getByText('2 enregistrements')).toBeInTheDocument();
  });

  it('says under the title how long records are kept when the retention is on, nothing when it is off', async () => {
    const { unmount } = show(historyPage([historyRow(0)], { retentionDays: 1095 }));
    const said = await screen.findByText(
      /plus de 1\s095\sjours sont supprimés automatiquement\.$/,
      {},
      { timeout: 15_000 },
    );
    expect(said.textContent).toContain(
      'Les enregistrements de plus de 1\u202f095\u00a0jours sont supprimés automatiquement.',
    );
    unmount();
    show(historyPage([historyRow(0)]));
    await screen.findByRole('table', {}, { timeout: 15_000 });
    expect(screen.getByText(/leur état de traitement\.$/)).toBeInTheDocument();
    expect(screen.queryByText(/supprimés automatiquement/)).toBeNull();
  });

  it("shows 'Chargement de l'historique en cours...' while the first page loads", async () => {
    let answer: (r: Response) => void = () => {};
    show(() => new Promise<Response>((resolve) => (answer = resolve)));
    expect(await screen.findByText("Chargement de l'historique en cours...")).toBeInTheDocument();
    answer(json(historyPage([historyRow(0)])));
    await table();
    expect(screen.queryByText("Chargement de l'historique en cours...")).not.toBeInTheDocument();
  });

  it("keeps the rows under 'Chargement de l'historique en cours...' while the next page loads", async () => {
    const pages = threePages();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    show(async (init, url) => {
      if (new URL(url, 'http://x').searchParams.get('page') === '2') await held;
      return pages(init, url);
    });
    const grid = await table();
    expect(screen.queryByText("Chargement de l'historique en cours...")).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    const overlay = (await screen.findByText("Chargement de l'historique en cours...")).closest(
      '[role="status"]',
    )!;
    // Laid over the rows of page 1, which stay.
    expect(overlay).toHaveClass('absolute', 'inset-0');
    expect(overlay.parentElement).toContainElement(grid);
    expect(within(grid).getByRole('cell', { name: 'XX_1000' })).toBeInTheDocument();

    release();
    expect(await rowOf('XX_1025')).toBeInTheDocument();
    expect(screen.getByText('Page 2 sur 3')).toBeInTheDocument();
    expect(screen.queryByText("Chargement de l'historique en cours...")).not.toBeInTheDocument();
  });

  it('says so when nothing matches', async () => {
    show(historyPage([]));
    expect(
      await screen.findByText('Aucun enregistrement trouvé pour les critères sélectionnés.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Page 1 sur 1')).toBeInTheDocument();
  });

  it("shows the load error with 'Failed to fetch history' and retries with 'Réessayer'", async () => {
    let fail = true;
    show(() =>
      fail ? json({ message: 'Le serveur est indisponible.' }, 503) : json(historyPage([historyRow(0)])),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Impossible de charger l'historique");
    expect(alert).toHaveTextContent('Le serveur est indisponible.');
    expect(alert).toHaveTextContent('Failed to fetch history');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    await table();
  });

  it('pages with the keyset cursors of the answer and shows « Page x sur y »', async () => {
    const { fetchMock } = show(threePages());
    await table();
    expect(screen.getByText('Page 1 sur 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Précédent/ })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    await screen.findByText('Page 2 sur 3');
    expect(Object.fromEntries(lastListQuery(fetchMock))).toMatchObject({ page: '2', cursor: 'next-of-1' });
    expect(await rowOf('XX_1025')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Précédent/ }));
    await screen.findByText('Page 1 sur 3');
    expect(Object.fromEntries(lastListQuery(fetchMock))).toMatchObject({
      page: '1',
      cursor: 'previous-of-2',
    });

    // The last page by number (read from the far end by the server), then the first.
    await userEvent.click(screen.getByRole('button', { name: 'Dernière page' }));
    await screen.findByText('Page 3 sur 3');
    expect(lastListQuery(fetchMock).get('cursor')).toBeNull();
    expect(screen.getByRole('button', { name: /Suivant/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Première page' }));
    await screen.findByText('Page 1 sur 3');
  });

  it("after a cursor the server refuses (400), 'Réessayer' asks for the same page by number", async () => {
    const pages = threePages();
    const { fetchMock } = show((init, url) =>
      new URL(url, 'http://x').searchParams.has('cursor')
        ? json({ message: 'Curseur de page invalide.' }, 400)
        : pages(init, url),
    );
    await table();
    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Curseur de page invalide.');
    expect(lastListQuery(fetchMock).get('cursor')).toBe('next-of-1');

    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    await screen.findByText('Page 2 sur 3');
    expect(Object.fromEntries(lastListQuery(fetchMock))).toMatchObject({ page: '2' });
    expect(lastListQuery(fetchMock).get('cursor')).toBeNull();
  });

  it('writes « plus de » when a search total is bounded and offers no last page', async () => {
    show(historyPage([historyRow(0)], { total: 10_000, totalPages: 400, totalExact: false, hasNext: true }));
    expect(await screen.findByText('Page 1 sur plus de 400')).toBeInTheDocument();
    expect(screen.getByText('plus de 10 000 enregistrements')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dernière page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Suivant/ })).toBeEnabled();
  });
});

describe('Historique d’importation: the filters', () => {
  it('applies the search on Enter only (or its button), back to page 1 without cursor', async () => {
    const { fetchMock } = show(threePages());
    await table();
    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    await screen.findByText('Page 2 sur 3');
    const before = listCalls(fetchMock).length;

    const box = screen.getByRole('searchbox', { name: 'Rechercher' });
    await userEvent.type(box, 'XX_10%');
    await new Promise((r) => setTimeout(r, 100));
    expect(listCalls(fetchMock)).toHaveLength(before);

    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(lastListQuery(fetchMock).get('search')).toBe('XX_10%'));
    expect(lastListQuery(fetchMock).get('page')).toBe('1');
    expect(lastListQuery(fetchMock).get('cursor')).toBeNull();

    await userEvent.clear(box);
    await userEvent.type(box, '  devis ');
    await userEvent.click(screen.getByRole('button', { name: 'Rechercher' }));
    await waitFor(() => expect(lastListQuery(fetchMock).get('search')).toBe('devis'));

    await userEvent.click(screen.getByRole('button', { name: 'Effacer la recherche' }));
    await waitFor(() => expect(lastListQuery(fetchMock).get('search')).toBeNull());
    expect(box).toHaveValue('');
  });

  it("'Afficher uniquement les erreurs' asks for errorOnly=true from page 1", async () => {
    const { fetchMock } = show(threePages());
    await table();
    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    await screen.findByText('Page 2 sur 3');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }));
    await waitFor(() => expect(lastListQuery(fetchMock).get('errorOnly')).toBe('true'));
    expect(lastListQuery(fetchMock).get('page')).toBe('1');
    expect(lastListQuery(fetchMock).get('cursor')).toBeNull();
  });

  it('sends a typed day as its local noon (ISO), clears it, and refuses an impossible date', async () => {
    const { fetchMock } = show(threePages());
    await table();
    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    await screen.findByText('Page 2 sur 3');
    const date = screen.getByRole('textbox', { name: 'Date' });

    await userEvent.type(date, '31/02/2025{Enter}');
    expect(await screen.findByText(/Date invalide/)).toBeInTheDocument();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(lastListQuery(fetchMock).get('date')).toBeNull();

    await userEvent.clear(date);
    await userEvent.type(date, '14/11/2025{Enter}');
    // TZ=Europe/Paris: noon on 14 November is 11:00 UTC.
    await waitFor(() => expect(lastListQuery(fetchMock).get('date')).toBe('2025-11-14T11:00:00.000Z'));
    expect(lastListQuery(fetchMock).get('page')).toBe('1');
    expect(screen.queryByText(/Date invalide/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Effacer la date' }));
    await waitFor(() => expect(lastListQuery(fetchMock).get('date')).toBeNull());
    expect(date).toHaveValue('');
  });

  it('chooses a day in the French calendar (weeks from Monday), keyboard included', async () => {
    const { fetchMock } = show(historyPage([historyRow(0)]));
    await table();
    const date = screen.getByRole('textbox', { name: 'Date' });
    await userEvent.type(date, '12/11/2025{Enter}');
    await waitFor(() => expect(lastListQuery(fetchMock).get('date')).toBe('2025-11-12T11:00:00.000Z'));

    await userEvent.click(screen.getByRole('button', { name: 'Choisir la date dans le calendrier' }));
    const calendar = await screen.findByRole('dialog', { name: 'Calendrier' });
    const headers = [...calendar.querySelectorAll('th')].map((h) => h.getAttribute('aria-label'));
    expect(headers.slice(0, 2)).toEqual(['lundi', 'mardi']);
    // The selected day has the focus; ArrowRight then Enter picks the next day.
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName(/12 novembre 2025/));
    await userEvent.keyboard('{ArrowRight}{Enter}');
    await waitFor(() => expect(lastListQuery(fetchMock).get('date')).toBe('2025-11-13T11:00:00.000Z'));
    expect(date).toHaveValue('13/11/2025');
    expect(screen.queryByRole('dialog', { name: 'Calendrier' })).not.toBeInTheDocument();
  });

  it('offers the CSV export of the filtered list', async () => {
    show(historyPage([historyRow(0)]));
    await table();
    const link = screen.getByRole('link', { name: 'Exporter en CSV' });
    expect(link).toHaveAttribute('href', '/api/exports/sync-history.csv?errorOnly=false');
    expect(link).toHaveAttribute('download');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Rechercher' }), 'GED{Enter}');
    await userEvent.type(screen.getByRole('textbox', { name: 'Date' }), '14/11/2025{Enter}');
    await waitFor(() =>
      expect(link).toHaveAttribute(
        'href',
        '/api/exports/sync-history.csv?errorOnly=true&date=2025-11-14T11%3A00%3A00.000Z&search=GED',
      ),
    );
  });
});

describe('Historique d’importation: the Traité cell', () => {
  function statusScene(patch: Handler) {
    let rows = [historyRow(0, { Etat: 0 }), historyRow(1)];
    const fetchMock = show(() => json(historyPage(rows)), {
      'PATCH /api/sync-history/NUXIDEV0000/status': patch,
    });
    return { ...fetchMock, setRows: (next: TSyncHistoryRow[]) => (rows = next) };
  }

  it('cycles 0 → 1 at once with a spinner, then keeps the answer’s row', async () => {
    let answer: (r: Response) => void = () => {};
    const { fetchMock } = statusScene(() => new Promise<Response>((resolve) => (answer = resolve)));
    const cell = await screen.findByRole('button', {
      name: 'Non traité\u00a0: marquer comme traité (XX_1000)',
    });
    await userEvent.click(cell);
    const pending = await screen.findByRole('button', { name: 'Traité\u00a0: marquer en erreur (XX_1000)' });
    expect(pending).toHaveAttribute('aria-busy', 'true');
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(JSON.parse(String(patch[1]!.body))).toEqual({ newStatus: 1 });
    // A second click while it runs sends nothing.
    await userEvent.click(pending);
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(1);

    const listsBefore = listCalls(fetchMock).length;
    answer(json(historyRow(0, { Etat: 1, TypeElement: 'Modification' })));
    await waitFor(() => expect(pending).not.toHaveAttribute('aria-busy'));
    // The cached row is the server's (its TypeElement shows) without a new list request.
    expect(within(await rowOf('XX_1000')).getByText('Modification')).toBeInTheDocument();
    expect(listCalls(fetchMock)).toHaveLength(listsBefore);
  });

  it('goes 1 → -1 → 0 along the cycle', async () => {
    let etat: 0 | 1 | -1 = 1;
    show(() => json(historyPage([historyRow(0, { Etat: etat })])), {
      'PATCH /api/sync-history/NUXIDEV0000/status': (init) => {
        etat = (JSON.parse(String(init.body)) as { newStatus: 0 | 1 | -1 }).newStatus;
        return json(historyRow(0, { Etat: etat }));
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Traité\u00a0: marquer en erreur/ }));
    await userEvent.click(await screen.findByRole('button', { name: /^Erreur\u00a0: remettre à importer/ }));
    await screen.findByRole('button', { name: /^Non traité\u00a0: marquer comme traité/ });
    expect(etat).toBe(0);
  });

  it('refetches the list and says so when the change fails', async () => {
    const { fetchMock, setRows } = statusScene(() => json({ message: 'Enregistrement introuvable.' }, 404));
    const cell = await screen.findByRole('button', { name: /^Non traité/ });
    setRows([historyRow(0, { Etat: -1 }), historyRow(1)]);
    await userEvent.click(cell);
    expect(
      (await screen.findAllByText("Impossible de modifier l'état de traitement"))[0],
    ).toBeInTheDocument();
    expect((await screen.findAllByText('Enregistrement introuvable.'))[0]).toBeInTheDocument();
    // The refetched list shows the stored state.
    await screen.findByRole('button', { name: /^Erreur\u00a0: remettre à importer \(XX_1000\)/ });
    expect(listCalls(fetchMock).length).toBeGreaterThanOrEqual(2);
  });
});

describe('Historique d’importation: log and file', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }),
    );
  });

  it("'Log de synchronisation' shows the log and copies it", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    show(historyPage([historyRow(0)]), {
      'GET /api/sync-history/NUXIDEV0000/log': () =>
        new Response('Import du devis\n{"ok":1}', { status: 200 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Log de synchronisation (XX_1000)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log de synchronisation' });
    const text = await within(dialog).findByRole('textbox', { name: 'Contenu du log' });
    expect(text).toHaveValue('Import du devis\n{"ok":1}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copier le log' }));
    expect(writeText).toHaveBeenCalledWith('Import du devis\n{"ok":1}');
    expect((await screen.findAllByText('Copié !')).length).toBeGreaterThan(0);
  });

  it('says why the log could not be read, and reads it again with « Réessayer »', async () => {
    let fail = true;
    show(historyPage([historyRow(0)]), {
      'GET /api/sync-history/NUXIDEV0000/log': () =>
        fail
          ? json({ message: 'Le serveur est indisponible.' }, 503)
          : new Response('Import du devis', { status: 200 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Log de synchronisation (XX_1000)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log de synchronisation' });
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByRole('heading', { level: 3 })).toHaveTextContent(HISTORY_TEXT.logLoadFailed);
    expect(alert).toHaveTextContent('Le serveur est indisponible.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    expect(await within(dialog).findByRole('textbox', { name: 'Contenu du log' })).toHaveValue(
      'Import du devis',
    );
  });

  it("says 'Impossible de copier le log' when the clipboard refuses, and 'Aucun log disponible' when empty", async () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) },
      configurable: true,
    });
    show(historyPage([historyRow(0), historyRow(1)]), {
      'GET /api/sync-history/NUXIDEV0000/log': () => new Response('Une ligne', { status: 200 }),
      'GET /api/sync-history/NUXIDEV0001/log': () => new Response('', { status: 200 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Log de synchronisation (XX_1000)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log de synchronisation' });
    await within(dialog).findByRole('textbox', { name: 'Contenu du log' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copier le log' }));
    expect((await screen.findAllByText('Impossible de copier le log')).length).toBeGreaterThan(0);
    const close = within(dialog)
      .getAllByRole('button', { name: 'Fermer' })
      .find((b) => b.textContent === 'Fermer')!;
    await userEvent.click(close);
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    await userEvent.click(await screen.findByRole('button', { name: 'Log de synchronisation (XX_1001)' }));
    const empty = await screen.findByRole('dialog', { name: 'Log de synchronisation' });
    expect(await within(empty).findByText('Aucun log disponible')).toBeInTheDocument();
    expect(within(empty).getByRole('button', { name: 'Copier le log' })).toBeDisabled();
  });

  it('downloads the file under the name of its Content-Disposition', async () => {
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    show(historyPage([historyRow(0, { hasFile: true })]), {
      'GET /api/sync-history/NUXIDEV0000/file': () =>
        new Response('%PDF', {
          status: 200,
          headers: { 'Content-Disposition': 'attachment; filename="DEVIS-0042.pdf"' },
        }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Télécharger le fichier (XX_1000)' }));
    await waitFor(() => expect(names).toEqual(['DEVIS-0042.pdf']));
  });

  it('downloads the file as download.xml when the answer names none', async () => {
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    show(historyPage([historyRow(0, { hasFile: true })]), {
      'GET /api/sync-history/NUXIDEV0000/file': () =>
        new Response('<Document/>', { status: 200, headers: { 'Content-Type': 'application/xml' } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Télécharger le fichier (XX_1000)' }));
    await waitFor(() => expect(names).toEqual(['download.xml']));
  });

  it('gives the three messages of a failed file download', async () => {
    show(historyPage([historyRow(0), historyRow(1), historyRow(2, { IDInterne: '', RefDoc: 'SANS-ID' })]), {
      'GET /api/sync-history/NUXIDEV0000/file': () =>
        json(
          { message: "Fichier non disponible - Aucun fichier n'est disponible pour cet enregistrement." },
          404,
        ),
      'GET /api/sync-history/NUXIDEV0001/file': () => json({ message: 'Erreur interne.' }, 500),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Télécharger le fichier (XX_1000)' }));
    expect((await screen.findAllByText('Fichier non disponible')).length).toBeGreaterThan(0);
    expect(
      (await screen.findAllByText("Aucun fichier n'est disponible pour cet enregistrement.")).length,
    ).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Télécharger le fichier (XX_1001)' }));
    expect((await screen.findAllByText('Impossible de télécharger le fichier.')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Télécharger le fichier (SANS-ID)' }));
    expect((await screen.findAllByText('Identifiant de fichier manquant.')).length).toBeGreaterThan(0);
  });
});
