import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TDashboardView } from '@synchro/contracts';
import { demoDashboard, demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function show(view: TDashboardView, extra: Parameters<typeof mockApi>[0] = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/dashboard': () => json(view),
    ...extra,
  });
  renderApp('/');
  return fetchMock;
}

/** The value (dd) next to a label (dt). */
async function valueOf(label: string) {
  const term = await screen.findByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('Général', () => {
  it('shows every read-only field of the demo installation', async () => {
    show(demoDashboard);
    expect(await screen.findByRole('heading', { name: 'Général', level: 1 })).toBeInTheDocument();
    expect(await valueOf('ID de synchronisation')).toHaveTextContent('DEMOA001');
    expect(await valueOf('Logiciel à synchroniser')).toHaveTextContent('EBP GesCom Open Line');
    expect(await valueOf('Licence Premium')).toHaveTextContent('OUI');
    expect(await valueOf('Version du connecteur')).toHaveTextContent('6.19.4');
    expect(await valueOf('Service automate installé')).toHaveTextContent('Version : 6.11.23.9');
    expect(await valueOf('Date de configuration')).toHaveTextContent('05/03/2025 09:33 (UTC+1)');
    expect(await valueOf('Date')).toHaveTextContent('09/03/2025 08:09 (UTC+1)');
    expect(await valueOf('Type')).toHaveTextContent('Complète');
    expect(await valueOf('Durée totale')).toHaveTextContent('00:04:11');
    expect((await valueOf("Nombre d'enregistrements")).textContent).toBe('1\u202f838');
    expect((await valueOf('Vitesse de lecture/écriture')).textContent).toBe(
      '5\u202f927 enregistrements/minute',
    );
    expect(await valueOf('Volume de données')).toHaveTextContent('3,721 Mo');
    expect(await valueOf('Terminaux autorisés')).toHaveTextContent('25');
    expect(await valueOf('Terminaux déclarés')).toHaveTextContent('8');
    expect((await valueOf('Planifications')).textContent).toBe(
      '1 Complète / 2 Incrémentales / 0 Importation',
    );
    expect((await valueOf('Clés API Google restantes')).textContent).toBe('NC');
    expect(screen.queryByRole('button', { name: /Synchronisation requise/ })).not.toBeInTheDocument();
  });

  it('shows each connection, the failed one in red with a focusable warning', async () => {
    show(demoDashboard);
    const list = await screen.findByRole('list', { name: 'État des connexions' });
    expect(within(list).getByText('Cnx 1 Connexion réussie')).not.toHaveClass('text-destructive');
    expect(within(list).getByText('Cnx 2 Échec de connexion')).toHaveClass('text-destructive');
    const warning = within(list).getByRole('button', { name: /utilisez l'utilitaire de reconnexion/ });
    warning.focus();
    expect(warning).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('utilitaire de reconnexion');
  });

  it('warns about a stale last sync, an excessive duration and a too large volume', async () => {
    show({
      ...demoDashboard,
      lastSync: { ...demoDashboard.lastSync, stale: true, durationAlert: true, volumeAlert: true },
    });
    expect(await screen.findByRole('button', { name: /^Synchronisation requise/ })).toBeInTheDocument();
    expect(screen.getByText('Synchronisation requise')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Durée de synchronisation excessive/ })).toBeInTheDocument();
    expect(
      screen.getByRole('button', {
        name: /^Volume de données trop important.*réduisez l'historique ou limitez/,
      }),
    ).toBeInTheDocument();
  });

  it('warns from 80 % of the storage quota, and says when it is full', async () => {
    const GB = 1024 ** 3;
    show({ ...demoDashboard, storage: { usedBytes: 39.9 * GB, quotaBytes: 50 * GB } });
    await screen.findByRole('heading', { name: 'Général', level: 1 });
    expect(screen.queryByText(/Espace de stockage/)).not.toBeInTheDocument();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';

    show({ ...demoDashboard, storage: { usedBytes: 41 * GB, quotaBytes: 50 * GB } });
    const nearly = await screen.findByText(/Espace de stockage presque plein/);
    expect(nearly.closest('[role="status"]')?.textContent).toContain(
      'Espace de stockage presque plein\u00a0: 41\u00a0Go utilisés sur 50\u00a0Go (82\u00a0%).',
    );
    vi.unstubAllGlobals();
    document.body.innerHTML = '';

    show({ ...demoDashboard, storage: { usedBytes: 50 * GB, quotaBytes: 50 * GB } });
    const full = await screen.findByText(/Espace de stockage plein/);
    expect(full.closest('[role="status"]')).toHaveTextContent('sont refusés');
  });

  it('reads the automate states and missing values', async () => {
    show({
      ...demoDashboard,
      premium: false,
      connectorVersion: null,
      automate: { state: 'update-required', label: 'Version : 6.10.0.1' },
      lastSync: { ...demoDashboard.lastSync, at: null, records: null, speed: null },
      terminals: { authorised: null, declared: 0 },
      planningCounts: { C: 0, R: 1, I: 3 },
    });
    expect(await valueOf('Licence Premium')).toHaveTextContent('NON');
    expect(await valueOf('Version du connecteur')).toHaveTextContent('NC');
    const automate = await valueOf('Service automate installé');
    expect(automate).toHaveTextContent('Mise à jour requise');
    expect(
      within(automate).getByRole('button', { name: /bouton de mise à jour dans le connecteur/ }),
    ).toBeInTheDocument();
    expect(await valueOf('Date')).toHaveTextContent('Aucune synchronisation');
    expect(await valueOf('Terminaux autorisés')).toHaveTextContent('NC');
    expect((await valueOf('Planifications')).textContent).toBe(
      '0 Complète / 1 Incrémentale / 3 Importations',
    );
  });

  it("shows 'Non installé' when the automate service is missing", async () => {
    show({ ...demoDashboard, automate: { state: 'not-installed', label: null } });
    expect(await valueOf('Service automate installé')).toHaveTextContent('Non installé');
  });

  it('shows times in the display zone with its offset', async () => {
    show({ ...demoDashboard, displayTimeZone: { zone: 'America/Martinique', offsetMinutes: -240 } });
    expect(await valueOf('Date')).toHaveTextContent('09/03/2025 03:09 (UTC-4)');
  });

  it('opens the support pages the server sets in a new tab', async () => {
    show(demoDashboard);
    const expected = [
      ['Assistance à distance', 'https://anydesk.com/fr/downloads'],
      ['Site support', 'https://support.editeur.example/'],
      ['Espace client', 'https://clients.editeur.example/'],
      ["Site de l'éditeur", 'https://www.editeur.example/'],
    ];
    for (const [label, href] of expected) {
      const anchor = await screen.findByRole('link', { name: new RegExp(`^${label}`) });
      expect(anchor).toHaveAttribute('href', href);
      expect(anchor).toHaveAttribute('target', '_blank');
      expect(anchor.getAttribute('rel')).toContain('noopener');
    }
  });

  it('shows only the support links the server sets', async () => {
    show({ ...demoDashboard, supportLinks: { support: 'https://aide.example/' } });
    expect(await screen.findByRole('link', { name: /^Site support/ })).toHaveAttribute(
      'href',
      'https://aide.example/',
    );
    expect(screen.queryByRole('link', { name: /^Espace client/ })).toBeNull();
  });

  it('shows no support card when the server sets no link', async () => {
    show({ ...demoDashboard, supportLinks: {} });
    await screen.findByText('Planifications');
    expect(screen.queryByText('Assistance')).toBeNull();
  });

  it('launches a sync: busy label, all buttons disabled, then the result toast', async () => {
    let release: (r: Response) => void = () => {};
    const fetchMock = show(demoDashboard, {
      'POST /api/sync-automate': () => new Promise<Response>((resolve) => (release = resolve)),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Incrémentale' }));
    const running = screen.getByRole('button', { name: 'Synchronisation en cours...' });
    expect(running).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Complète' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Import des saisies' })).toBeDisabled();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/sync-automate')!;
    expect(JSON.parse(call[1]!.body as string)).toEqual({ type: 'R' });
    release(json({ retInfo: 'Demande de synchronisation transmise', retSync: 1 }));
    const toast = await screen.findByText('Demande de synchronisation transmise');
    expect(toast.closest('[data-variant]')).toHaveAttribute('data-variant', 'default');
    expect(screen.getByText('Synchronisation')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Incrémentale' })).toBeEnabled());
  });

  it.each([
    ['C', 'Complète'],
    ['I', 'Import des saisies'],
  ])('sends type %s for %s and shows a refused sync as destructive', async (type, label) => {
    const fetchMock = show(demoDashboard, {
      'POST /api/sync-automate': () =>
        json({ retInfo: 'Cette fonctionnalité nécessite une licence Premium', retSync: 0 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: label }));
    const toast = await screen.findByText('Cette fonctionnalité nécessite une licence Premium');
    expect(toast.closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/sync-automate')!;
    expect(JSON.parse(call[1]!.body as string)).toEqual({ type });
  });

  it("reports a failed request as 'Erreur de synchronisation'", async () => {
    show(demoDashboard, { 'POST /api/sync-automate': () => json({ message: 'Service indisponible' }, 502) });
    await userEvent.click(await screen.findByRole('button', { name: 'Complète' }));
    expect(await screen.findByText('Erreur de synchronisation')).toBeInTheDocument();
    expect(screen.getByText('Service indisponible')).toBeInTheDocument();
  });

  it('keeps the lines of retInfo in the toast, with French spacing', async () => {
    show(demoDashboard, {
      'POST /api/sync-automate': () =>
        json({ retInfo: 'Synchronisation Complète demandée.\nDurée estimée : 4 min', retSync: 1 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Complète' }));
    const toast = await screen.findByText(/^Synchronisation Complète demandée\./, {
      selector: '[data-variant] *',
    });
    expect(toast.textContent).toBe('Synchronisation Complète demandée.\nDurée estimée\u00a0: 4 min');
    expect(toast).toHaveClass('whitespace-pre-line');
    expect(toast.closest('[data-variant]')).toHaveAttribute('data-variant', 'default');
  });

  it('reads the dashboard again when an accepted order answers, then a few seconds later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = show(demoDashboard, {
        'POST /api/sync-automate': () => json({ retInfo: 'Demande transmise', retSync: 1 }),
      });
      const reads = () => fetchMock.mock.calls.filter(([url]) => url === '/api/dashboard').length;
      await userEvent.click(await screen.findByRole('button', { name: 'Complète' }));
      await screen.findByText('Demande transmise');
      await waitFor(() => expect(reads()).toBe(2));
      await vi.advanceTimersByTimeAsync(3_000);
      await waitFor(() => expect(reads()).toBe(3));
      await vi.advanceTimersByTimeAsync(7_000);
      await waitFor(() => expect(reads()).toBe(4));
      await vi.advanceTimersByTimeAsync(20_000);
      await waitFor(() => expect(reads()).toBe(5));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refused order is read again at once only (no sync to wait for)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = show(demoDashboard, {
        'POST /api/sync-automate': () => json({ retInfo: 'Refusée', retSync: 0 }),
      });
      const reads = () => fetchMock.mock.calls.filter(([url]) => url === '/api/dashboard').length;
      await userEvent.click(await screen.findByRole('button', { name: 'Complète' }));
      await screen.findByText('Refusée');
      await waitFor(() => expect(reads()).toBe(2));
      await vi.advanceTimersByTimeAsync(31_000);
      expect(reads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the automate service online, with its machine, version and the age of its last report', async () => {
    show(demoDashboard);
    const status = await screen.findByRole('group', { name: 'Service automate' });
    expect(within(status).getByText('En ligne')).toBeInTheDocument();
    expect(status.textContent).toBe(
      'Service automateEn ligneSRV-ERP · version\u00a06.11.23.9 · dernier signal il y a 3\u00a0min',
    );
    expect(within(status).getByText('il y a 3 min', { selector: 'time' })).toHaveAttribute(
      'dateTime',
      '2025-03-10T11:57:00.000Z',
    );
  });

  it('shows the automate service offline after 24 hours of silence, and when it never reported', async () => {
    show({
      ...demoDashboard,
      automateService: {
        ...demoDashboard.automateService,
        online: false,
        lastReportAgeSeconds: 2 * 86_400 + 60,
      },
    });
    const status = await screen.findByRole('group', { name: 'Service automate' });
    expect(within(status).getByText('Hors ligne')).toBeInTheDocument();
    expect(status).toHaveTextContent(
      'aucun signal depuis plus de 24 heures (dernier il y a 2 jours) : les demandes lui sont tout de même envoyées.',
    );
  });

  it('says why no order can reach an automate whose address the console refuses', async () => {
    show({
      ...demoDashboard,
      automateService: {
        ...demoDashboard.automateService,
        address: '10.0.0.5:8085',
        ordersRefused: 'L’adresse 10.0.0.5 est une adresse privée (10.0.0.0/8).',
      },
    });
    const group = await screen.findByRole('group', { name: 'Service automate' });
    expect(within(group).getByText('En ligne')).toBeVisible();
    expect(
      screen.getByText(
        'Les demandes de synchronisation ne peuvent pas lui être envoyées (10.0.0.5:8085). L’adresse 10.0.0.5 est une adresse privée (10.0.0.0/8).',
      ),
    ).toBeVisible();
  });

  it('says when no automate service ever reported', async () => {
    show({
      ...demoDashboard,
      automateService: {
        registered: false,
        online: false,
        lastReportAt: null,
        lastReportAgeSeconds: null,
        version: null,
        machineName: null,
        address: null,
        ordersRefused: null,
      },
    });
    const status = await screen.findByRole('group', { name: 'Service automate' });
    expect(within(status).getByText('Non enregistré')).toBeInTheDocument();
    expect(status).toHaveTextContent("Aucun service d'automate ne s'est encore signalé à la console.");
  });

  it('offers to retry when the dashboard cannot be read', async () => {
    let fail = true;
    show(demoDashboard, {
      'GET /api/dashboard': () => (fail ? json({ message: 'Base indisponible' }, 500) : json(demoDashboard)),
    });
    expect(await screen.findByText('Base indisponible')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Impossible de charger le tableau de bord');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await valueOf('ID de synchronisation')).toHaveTextContent('DEMOA001');
  });
});
