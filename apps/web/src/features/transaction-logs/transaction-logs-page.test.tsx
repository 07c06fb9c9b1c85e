import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TTransactionLogsPage } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { transactionRow, transactionsPage } from '../../test/history-fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { logPreview } from './transaction-messages.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

type FetchMock = ReturnType<typeof mockApi>;

const listCalls = (fetchMock: FetchMock) =>
  fetchMock.mock.calls
    .map(([input]) => String(input))
    .filter((url) => url.startsWith('/api/transaction-logs?'));
const lastQuery = (fetchMock: FetchMock) => {
  const calls = listCalls(fetchMock);
  return new URLSearchParams(calls[calls.length - 1]!.split('?')[1]);
};

function show(list: Handler | TTransactionLogsPage, extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/transaction-logs': typeof list === 'function' ? list : () => json(list),
    ...extra,
  });
  renderApp('/transaction-logs');
  return fetchMock;
}

function twoPages(): Handler {
  return (_init, url) => {
    const page = Number(new URL(url, 'http://x').searchParams.get('page'));
    const rows = Array.from({ length: page === 2 ? 5 : 25 }, (_, i) => transactionRow((page - 1) * 25 + i));
    return json(transactionsPage(rows, { page, total: 30, totalPages: 2 }));
  };
}

const table = () => screen.findByRole('table', { name: 'Transactions' }, { timeout: 15_000 });

describe('Trace des transactions', () => {
  it('shows the title, the notice, the eight columns and the log’s first two lines', async () => {
    const fetchMock = show(
      transactionsPage([
        transactionRow(0),
        transactionRow(1, { Err: 1, Log: 'Erreur de synchronisation', TypeDoc: 'INTERVENTION' }),
      ]),
    );
    expect(
      await screen.findByRole('heading', { name: 'Trace des transactions', level: 1 }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Trace des transactions – Synchro'));
    const notice = screen.getByRole('note', { name: 'Fuseau horaire' });
    await waitFor(() => expect(notice).toHaveTextContent('UTC+1'));
    const grid = await table();
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'État',
      'Date de transaction',
      'N° Transaction',
      'Etape Sync',
      'ID Terminal',
      'Terminal',
      'Contenu du log',
      'Actions',
    ]);
    const [, first, second] = within(grid).getAllByRole('row');
    const cells = within(first!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 6)).toEqual([
      'OK',
      '14/11/2025 09:12:03',
      '800',
      'DEVIS',
      '815bf75ff86d94fa',
      'pixel 8',
    ]);
    expect(cells[6]).toBe('Début de la transactionDevis XX importé…');
    expect(within(second!).getAllByRole('cell')[0]).toHaveTextContent('Erreur');
    expect(screen.getByText('Affichage de 2 sur 2 enregistrements')).toBeInTheDocument();
    expect(Object.fromEntries(lastQuery(fetchMock))).toEqual({
      page: '1',
      pageSize: '25',
      errorOnly: 'false',
    });
  });

  it('says under the title how long transactions are kept when the retention is on, nothing when it is off', async () => {
    show({ ...transactionsPage([transactionRow(0)]), retentionDays: 30 });
    const said = await screen.findByText(
      / Les transactions de plus de 30\sjours sont supprimées automatiquement\.$/,
      {},
      { timeout: 15_000 },
    );
    // The description first, then the sentence; a no-break space between the number and its unit.
    expect(said.textContent).toBe(
      'Les échanges traités par le connecteur pour chaque terminal, avec leur log. Les transactions de plus de 30\u00a0jours sont supprimées automatiquement.',
    );
    cleanup();
    show(transactionsPage([transactionRow(0)]));
    await table();
    expect(screen.queryByText(/supprimées automatiquement/)).toBeNull();
  });

  it('keeps two lines of the log and marks what is left out', () => {
    expect(logPreview('a\nb\nc', false)).toBe('a\nb…');
    expect(logPreview('a\r\nb', false)).toBe('a\nb');
    expect(logPreview('a\nb\n\n', false)).toBe('a\nb');
    expect(logPreview('a', true)).toBe('a…');
  });

  it("shows the empty text, and the error state with 'Réessayer'", async () => {
    let fail = true;
    show(() => (fail ? json({ message: 'Erreur interne.' }, 500) : json(transactionsPage([]))));
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent(
      'Une erreur est survenue lors de la récupération des logs. Veuillez réessayer.',
    );
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    expect(
      await screen.findByText('Aucun log de transaction trouvé pour les critères sélectionnés.'),
    ).toBeInTheDocument();
  });

  it('pages with the cursors, and every filter goes back to page 1', async () => {
    const fetchMock = show(twoPages());
    await table();
    expect(screen.getByText('Affichage de 25 sur 30 enregistrements')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Suivant/ }));
    await screen.findByText('Page 2 sur 2');
    expect(Object.fromEntries(lastQuery(fetchMock))).toMatchObject({ page: '2', cursor: 'next-of-1' });
    expect(screen.getByText('Affichage de 5 sur 30 enregistrements')).toBeInTheDocument();

    const box = screen.getByRole('searchbox', { name: 'Rechercher' });
    await userEvent.type(box, '815bf');
    expect(lastQuery(fetchMock).get('searchText')).toBeNull();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(lastQuery(fetchMock).get('searchText')).toBe('815bf'));
    expect(lastQuery(fetchMock).get('page')).toBe('1');
    expect(lastQuery(fetchMock).get('cursor')).toBeNull();

    await userEvent.type(screen.getByRole('textbox', { name: 'Date' }), '14/11/2025{Enter}');
    await waitFor(() => expect(lastQuery(fetchMock).get('dateFilter')).toBe('2025-11-14'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }));
    await waitFor(() => expect(lastQuery(fetchMock).get('errorOnly')).toBe('true'));
    expect(screen.getByRole('link', { name: 'Exporter en CSV' })).toHaveAttribute(
      'href',
      '/api/exports/transaction-logs.csv?errorOnly=true&dateFilter=2025-11-14&searchText=815bf',
    );
  });

  it("'Voir plus' shows the whole log of the row, and fetches it when the row holds its beginning", async () => {
    const full = Array.from({ length: 30 }, (_, i) => `Ligne ${i + 1}`).join('\n');
    const fetchMock = show(
      transactionsPage([
        transactionRow(0),
        transactionRow(1, { Log: full.split('\n').slice(0, 10).join('\n'), logTruncated: true }),
      ]),
      { 'GET /api/transaction-logs/T-000001': () => json(transactionRow(1, { Log: full })) },
    );
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'Voir plus (transaction 800)' }));
    let dialog = await screen.findByRole('dialog', { name: 'Détail de la transaction' });
    expect(within(dialog).getByRole('textbox', { name: 'Contenu du log' })).toHaveValue(
      'Début de la transaction\nDevis XX importé\nFin de la transaction',
    );
    expect(dialog).toHaveTextContent('14/11/2025 09:12:03');
    expect(dialog).toHaveTextContent('pixel 8 — 815bf75ff86d94fa');
    expect(dialog).toHaveTextContent('T-000000');
    expect(dialog).toHaveTextContent('N° Transaction800');
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/transaction-logs/T-000000')).toBe(false);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Voir plus (transaction 801)' }));
    dialog = await screen.findByRole('dialog', { name: 'Détail de la transaction' });
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Contenu du log' })).toHaveValue(full),
    );
  });

  it('says why the whole log could not be read, and reads it again with « Réessayer »', async () => {
    const full = Array.from({ length: 30 }, (_, i) => `Ligne ${i + 1}`).join('\n');
    let fail = true;
    show(transactionsPage([transactionRow(1, { Log: 'Ligne 1', logTruncated: true })]), {
      'GET /api/transaction-logs/T-000001': () =>
        fail
          ? json({ message: 'Le serveur est indisponible.' }, 503)
          : json(transactionRow(1, { Log: full })),
    });
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'Voir plus (transaction 801)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Détail de la transaction' });
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByRole('heading', { level: 3 })).toHaveTextContent(
      'Impossible de charger le log complet',
    );
    expect(alert).toHaveTextContent('Le serveur est indisponible.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Contenu du log' })).toHaveValue(full),
    );
  });

  it('filters on the terminal ids of the address (Terminaux’s link: a terminal’s tablet and smartphone), until removed', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/transaction-logs?terminal=TAB-7&terminal=PHONE-7&terminal=');
    try {
      const fetchMock = show(transactionsPage([transactionRow(0)]));
      await table();
      expect(lastQuery(fetchMock).getAll('terminal')).toEqual(['TAB-7', 'PHONE-7']);
      expect(screen.getByText(/^Terminal :/)).toHaveTextContent('Terminal : TAB-7 ou PHONE-7');
      expect(screen.getByRole('link', { name: /Exporter/ })).toHaveAttribute(
        'href',
        expect.stringContaining('terminal=TAB-7&terminal=PHONE-7'),
      );
      await user.click(screen.getByRole('button', { name: 'Retirer ce filtre' }));
      await waitFor(() => expect(lastQuery(fetchMock).getAll('terminal')).toEqual([]));
      expect(screen.queryByText(/^Terminal :/)).not.toBeInTheDocument();
      // The address follows: a reload would not put the filter back.
      expect(window.location.search).toBe('');
      await user.click(screen.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }));
      await waitFor(() => expect(window.location.search).toBe('?errors=1'));
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
});
