import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TAuditPage, TAuditRow } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { PARIS } from '../../test/history-fixtures.ts';
import { json, mockApi, renderApp } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const ROWS: TAuditRow[] = [
  {
    id: '2',
    at: '2025-11-14T08:12:00.000Z',
    actor: 'user',
    action: 'config.restore',
    kind: 'configuration',
    label: 'Restauration de la configuration',
    outcome: 'failure',
    address: '192.0.2.10',
    details: [{ label: 'Refus', value: 'modifiée entre-temps (conflit)' }],
  },
  {
    id: '1',
    at: '2025-11-14T08:10:00.000Z',
    actor: 'anonymous',
    action: 'login.failure',
    kind: 'connexion',
    label: 'Échec de connexion (identifiants incorrects)',
    outcome: 'failure',
    address: '198.51.100.7',
    details: [],
  },
];

const answer = (rows: TAuditRow[]): TAuditPage => ({
  rows,
  pagination: {
    page: 1,
    pageSize: 25,
    total: rows.length,
    totalPages: 1,
    totalExact: true,
    hasPrevious: false,
    hasNext: false,
    nextCursor: null,
    previousCursor: null,
  },
  displayTimeZone: PARIS,
  retentionDays: 400,
});

describe("Journal d'audit", () => {
  it('shows each event in French, filters by kind and failures, exports what the filters select', async () => {
    const fetchMock = mockApi({
      'GET /api/user': () => json(demoUser),
      'GET /api/audit': (_i, url) =>
        json(answer(new URL(url, 'http://x').searchParams.get('kind') === 'connexion' ? [ROWS[1]!] : ROWS)),
    });
    renderApp('/audit');
    const table = await screen.findByRole(
      'table',
      { name: 'Événements du journal d’audit' },
      { timeout: 15_000 },
    );
    const [, first] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('14/11/2025 09:12:00');
    expect(first).toHaveTextContent('Restauration de la configuration');
    expect(first).toHaveTextContent('Échec');
    expect(first).toHaveTextContent('192.0.2.10');
    expect(first).toHaveTextContent('Refus : modifiée entre-temps (conflit)');
    expect(screen.getByText(/conservés 400\sjours/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Type d’événement' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Connexions' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Échecs et refus uniquement' }));
    const urls = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/audit?'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([u]) => String(u)).at(-1)).toContain('errorOnly=true'),
    );
    expect(urls.some((u) => u.includes('kind=connexion'))).toBe(true);
    expect(screen.getByRole('link', { name: 'Exporter en CSV' })).toHaveAttribute(
      'href',
      '/api/exports/audit.csv?errorOnly=true&kind=connexion',
    );
  });
});
