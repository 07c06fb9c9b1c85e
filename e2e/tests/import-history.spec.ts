import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ZSyncHistoryPage, ZSyncHistoryXml } from '@synchro/contracts';
import { E2E_BASE_URL, E2E_PORT } from '../support/env.ts';
import { connectorToken, devisXml, gedXml, postRecords, record } from '../support/history-data.ts';
import { signIn } from '../support/session.ts';

// Historique d'importation against the real server, on records sent through the connector API.
// Every record of this run carries RUN in its reference and the tests search for it, so that
// what other specs add to the installation (the simulator's imports) changes none of the figures.
const RUN = `H${Date.now().toString(36).toUpperCase()}`;
const ref = (n: number) => `${RUN}-D${String(n).padStart(2, '0')}`;
const id = (n: number) => `${RUN}-ID${String(n).padStart(2, '0')}`;

/** 30 quotes over two days of February 2024 (Paris wall clock), a GED record and a 30 MB photo. */
function records() {
  const out = [];
  for (let n = 1; n <= 30; n += 1) {
    const day = n <= 20 ? 14 : 13;
    const minute = String(59 - n).padStart(2, '0');
    out.push(
      record({
        IDInterne: id(n),
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: ref(n),
        DateHeure: `2024-02-${day}T09:${minute}:30`,
        NumLigne: n % 4,
        TypeElement: n % 3 === 0 ? 'Modification' : 'Création',
        Etat: n === 5 ? 0 : n % 10 === 7 ? -1 : 1,
        Enreg: devisXml(ref(n), 'Ciselure & Fils'),
        ...(n === 1 ? { Log: `Import du devis ${ref(1)}\nClient CISEL trouvé\nDevis créé dans l'ERP` } : {}),
        ...(n === 2
          ? { Fichier: { Nom: 'DEVIS été.pdf', Contenu: Buffer.from('%PDF-1.4 e2e').toString('base64') } }
          : {}),
      }),
    );
  }
  out.push(
    record({
      IDInterne: id(40),
      TypeEnreg: 'GED',
      RefDoc: `${RUN}-GED`,
      DateHeure: '2024-02-12T10:00:00',
      Etat: 1,
      Enreg: gedXml(`${RUN}-GED`, 'photo chantier.png', 50_000),
    }),
  );
  // 22.5 MB of image in base64: a record of 30 MB, NomFichier / Photo in an images table.
  const photo = Buffer.alloc(22_500_000, 0x42).toString('base64');
  out.push(
    record({
      IDInterne: id(41),
      TypeEnreg: 'GED',
      RefDoc: `${RUN}-BIG`,
      DateHeure: '2024-02-12T09:00:00',
      Etat: 1,
      Enreg: `<?xml version="1.0" encoding="utf-8"?>\n<SyncNuxiDev><Table>images</Table><Enregistrement><IDInterne>${RUN}-BIG</IDInterne><NomFichier>grande photo.jpg</NomFichier><Commentaire>Façade</Commentaire><Photo>${photo}</Photo></Enregistrement></SyncNuxiDev>`,
    }),
  );
  return out;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await postRecords(E2E_BASE_URL, connectorToken(E2E_PORT), records());
});

const toast = (page: Page, text: string | RegExp) => page.locator('[data-variant]').filter({ hasText: text });
const rowOf = (page: Page, reference: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: reference, exact: true }) });

async function openSearched(page: Page, term = RUN) {
  await signIn(page);
  await page.goto('/import-history');
  await expect(page.getByRole('heading', { name: "Historique d'importation", level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill(term);
  await page.getByRole('searchbox', { name: 'Rechercher' }).press('Enter');
}

/** A task of the page's main thread computing this long holds the page: it is frozen. */
const FROZEN_TASK_CPU_MS = 250;

/**
 * The tasks of the page's main thread in a Chromium trace ('toplevel' category): the longest in
 * CPU time of the thread (`tdur`), the longest in wall time (`dur`), and their total CPU time. The
 * page's thread is the renderer main thread that computed the most (the only busy one here).
 */
function mainThreadTasks(trace: Buffer) {
  type Event = {
    ph: string;
    name: string;
    pid: number;
    tid: number;
    dur?: number;
    tdur?: number;
    args?: { name?: string };
  };
  const parsed = JSON.parse(trace.toString('utf8')) as Event[] | { traceEvents: Event[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, { dur: number; tdur: number }[]>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || !mains.has(thread)) continue;
    byThread.set(thread, [...(byThread.get(thread) ?? []), { dur: e.dur ?? 0, tdur: e.tdur ?? 0 }]);
  }
  const cpu = (tasks: { tdur: number }[]) => tasks.reduce((sum, t) => sum + t.tdur, 0);
  const tasks = [...byThread.values()].sort((a, b) => cpu(b) - cpu(a))[0] ?? [];
  if (tasks.length === 0) throw new Error('no task of the page’s main thread in the trace');
  const ms = (us: number) => Math.round(us / 1000);
  return {
    longestCpuMs: ms(Math.max(...tasks.map((t) => t.tdur))),
    longestMs: ms(Math.max(...tasks.map((t) => t.dur))),
    cpuMs: ms(cpu(tasks)),
  };
}

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

test.describe("Historique d'importation", () => {
  test('lists the run’s records newest first, in the zone, with the notice, paging by cursor', async ({
    page,
  }) => {
    await openSearched(page);
    await expect(page.getByText('Version 6.16.26')).toBeVisible();
    const notice = page.getByRole('note', { name: 'Fuseau horaire' });
    await expect(notice).toContainText('Europe/Paris');
    await expect(notice).toContainText(/UTC\+[12]/);
    await expect(page.getByText('Page 1 sur 2')).toBeVisible();
    await expect(page.getByText('32 enregistrements')).toBeVisible();

    const first = rowOf(page, ref(1));
    // Sent as the Paris wall clock 09:58:30 on 14/02/2024: shown as such, no other shift.
    await expect(first.getByRole('cell')).toHaveText([
      /Traité/,
      '',
      'DocumentDEVIS',
      ref(1),
      '14/02/2024 09:58:30',
      '1',
      'Création',
    ]);
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(26);

    const next = page.waitForRequest(
      (r) => r.url().includes('/api/sync-history?') && r.url().includes('cursor='),
    );
    await page.getByRole('button', { name: /Suivant/ }).click();
    expect(new URL((await next).url()).searchParams.get('page')).toBe('2');
    await expect(page.getByText('Page 2 sur 2')).toBeVisible();
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(8);
    await expect(rowOf(page, `${RUN}-BIG`)).toBeVisible();
    await page.getByRole('button', { name: /Précédent/ }).click();
    await expect(page.getByText('Page 1 sur 2')).toBeVisible();
    await expect(rowOf(page, ref(1))).toBeVisible();
  });

  test('filters by day (typed or in the calendar) and by errors, each from page 1', async ({ page }) => {
    await openSearched(page);
    await page.getByRole('button', { name: /Suivant/ }).click();
    await expect(page.getByText('Page 2 sur 2')).toBeVisible();

    const date = page.getByRole('textbox', { name: 'Date' });
    await date.fill('13/02/2024');
    await date.press('Enter');
    await expect(page.getByText('Page 1 sur 1')).toBeVisible();
    await expect(page.getByText('10 enregistrements')).toBeVisible();
    await expect(rowOf(page, ref(21))).toBeVisible();

    // The calendar opens on the chosen day; the keyboard moves to the next one.
    await page.getByRole('button', { name: 'Choisir la date dans le calendrier' }).click();
    const calendar = page.getByRole('dialog', { name: 'Calendrier' });
    await expect(calendar.locator('th').first()).toHaveAttribute('aria-label', 'lundi');
    await expect(calendar.getByRole('button', { name: /13 février 2024/ })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(date).toHaveValue('14/02/2024');
    await expect(page.getByText('20 enregistrements')).toBeVisible();

    await page.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }).check();
    await expect(page.getByText('2 enregistrements')).toBeVisible();
    for (const n of [7, 17]) await expect(rowOf(page, ref(n))).toContainText('Erreur');

    await page.getByRole('button', { name: 'Effacer la date' }).click();
    await expect(date).toHaveValue('');
    await expect(page.getByText('3 enregistrements')).toBeVisible();
    for (const n of [7, 17, 27]) await expect(rowOf(page, ref(n))).toContainText('Erreur');
  });

  test('the search runs on Enter only', async ({ page }) => {
    await openSearched(page);
    await expect(page.getByText('32 enregistrements')).toBeVisible();
    const box = page.getByRole('searchbox', { name: 'Rechercher' });
    await box.fill(ref(12));
    await page.waitForTimeout(300);
    await expect(page.getByText('32 enregistrements')).toBeVisible();
    await box.press('Enter');
    await expect(page.getByText('1 enregistrement', { exact: true })).toBeVisible();
    // Wildcards are literal: « % » matches nothing here.
    await box.fill(`${RUN}%`);
    await page.getByRole('button', { name: 'Rechercher', exact: true }).click();
    await expect(page.getByText('Aucun enregistrement trouvé pour les critères sélectionnés.')).toBeVisible();
  });

  test('the Traité cell cycles 0 → 1 → -1 → 0 and the state is stored (0 puts it back in the queue)', async ({
    page,
  }) => {
    await openSearched(page, ref(5));
    const cell = rowOf(page, ref(5)).getByRole('button', { name: /^Non traité/ });
    await expect(cell).toHaveAccessibleName(`Non traité\u00a0: marquer comme traité (${ref(5)})`);
    await cell.click();
    await expect(
      rowOf(page, ref(5)).getByRole('button', { name: /^Traité\s: marquer en erreur/ }),
    ).toBeVisible();
    await page.reload();
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill(ref(5));
    await page.getByRole('searchbox', { name: 'Rechercher' }).press('Enter');
    await rowOf(page, ref(5))
      .getByRole('button', { name: /^Traité/ })
      .click();
    await rowOf(page, ref(5))
      .getByRole('button', { name: /^Erreur/ })
      .click();
    await expect(rowOf(page, ref(5)).getByRole('button', { name: /^Non traité/ })).toBeVisible();

    const queued = async () => {
      const res = await page.request.get('/api/connector/v1/import-records/queue?limit=500', {
        headers: { Authorization: `Bearer ${connectorToken(E2E_PORT)}` },
      });
      const body = (await res.json()) as { records: { IDInterne: string }[] };
      return body.records.some((r) => r.IDInterne === id(5));
    };
    await expect.poll(queued).toBe(true);
    // Left processed: the simulator's next import sync has nothing of ours to import.
    await rowOf(page, ref(5))
      .getByRole('button', { name: /^Non traité/ })
      .click();
    await expect(rowOf(page, ref(5)).getByRole('button', { name: /^Traité/ })).toBeVisible();
    await expect.poll(queued).toBe(false);
  });

  test("'Log de synchronisation': the log, its copy, and 'Aucun log disponible'", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_BASE_URL });
    await openSearched(page);
    await page.getByRole('button', { name: `Log de synchronisation (${ref(1)})` }).click();
    const dialog = page.getByRole('dialog', { name: 'Log de synchronisation' });
    const text = dialog.getByRole('textbox', { name: 'Contenu du log' });
    await expect(text).toHaveValue(`Import du devis ${ref(1)}\nClient CISEL trouvé\nDevis créé dans l'ERP`);
    await dialog.getByRole('button', { name: 'Copier le log' }).click();
    await expect(dialog.getByRole('button', { name: 'Copié\u202f!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Client CISEL trouvé');
    await dialog.getByRole('button', { name: 'Fermer', exact: true }).last().click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: `Log de synchronisation (${ref(3)})` }).click();
    await expect(dialog.getByText('Aucun log disponible')).toBeVisible();
  });

  test('downloads the produced file under its name, and says when there is none', async ({ page }) => {
    await openSearched(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Télécharger le fichier (${ref(2)})` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('DEVIS été.pdf');
    expect(readFileSync((await file.path())!, 'utf8')).toBe('%PDF-1.4 e2e');

    await page.getByRole('button', { name: `Télécharger le fichier (${ref(3)})` }).click();
    await expect(toast(page, 'Fichier non disponible')).toContainText(
      "Aucun fichier n'est disponible pour cet enregistrement.",
    );
  });

  test('exports the filtered history as CSV', async ({ page }) => {
    await openSearched(page);
    await page.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }).check();
    await expect(page.getByText('3 enregistrements')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exporter en CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^historique-importation-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await file.path())!);
    expect(bytes.subarray(0, 3).toString('hex')).toBe('efbbbf');
    const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe(
      '"Traité";"Type d\'élément";"Référence";"Date/Heure Export";"Décalage UTC";"Nb Lignes";"Type Traitement";"ID interne";"Fichier"',
    );
    expect(lines.slice(1).map((l) => l.split(';')[2])).toEqual([
      `"${ref(7)}"`,
      `"${ref(17)}"`,
      `"${ref(27)}"`,
    ]);
  });

  test('the XML editor: fields by parent, a save escaped once, and leaving with edits asks', async ({
    page,
  }) => {
    await openSearched(page, ref(4));
    await page.getByRole('button', { name: `Modifier les données XML (${ref(4)})` }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier les données XML' });
    await expect(dialog.getByRole('heading', { name: /^Enregistrement › Lignes › Ligne 2/ })).toBeVisible();
    const nom = dialog.getByRole('textbox', { name: 'FacturationNom' });
    await expect(nom).toHaveValue('Ciselure & Fils');
    await expect(dialog.getByRole('textbox', { name: 'Facturation_Ville' })).toHaveValue('SAINT ÉTIENNE');

    await nom.fill('Durand & Fils <SARL>');
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('alertdialog', { name: 'Modifications non sauvegardées' });
    await confirm.getByRole('button', { name: 'Continuer la modification' }).click();
    await expect(dialog.getByRole('textbox', { name: /^FacturationNom/ })).toHaveValue(
      'Durand & Fils <SARL>',
    );

    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, "Les données XML de l'enregistrement ont été enregistrées.")).toBeVisible();
    await expect(dialog).toBeHidden();

    const stored = ZSyncHistoryXml.parse(
      await (await page.request.get(`/api/sync-history/${id(4)}/xml`)).json(),
    );
    expect(stored.enreg).toContain('<FacturationNom>Durand &amp; Fils &lt;SARL&gt;</FacturationNom>');
    expect(stored.enreg).toContain('<Facturation_Ville>SAINT ÉTIENNE</Facturation_Ville>');

    await page.getByRole('button', { name: `Modifier les données XML (${ref(4)})` }).click();
    await expect(dialog.getByRole('textbox', { name: 'FacturationNom' })).toHaveValue('Durand & Fils <SARL>');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('an attached document shows as its name and size and downloads', async ({ page }) => {
    await openSearched(page, `${RUN}-GED`);
    await page.getByRole('button', { name: `Modifier les données XML (${RUN}-GED)` }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier les données XML' });
    const card = dialog.getByRole('group', { name: 'Document joint photo chantier.png' });
    await expect(card).toContainText('48,8\u00a0Ko');
    await expect(dialog.getByRole('textbox', { name: 'BinaireDocument' })).toHaveCount(0);
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: /Télécharger/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('photo chantier.png');
    const bytes = readFileSync((await file.path())!);
    expect(bytes.length).toBe(50_000);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    await expect(toast(page, 'Document téléchargé avec succès')).toBeVisible();
  });

  test('a 30 MB record opens and saves without freezing the page', async ({ page, browser }) => {
    test.setTimeout(90_000);
    await openSearched(page, `${RUN}-BIG`);
    // The page's main thread from the click on the editor to the card, then from the click on
    // Enregistrer to the toast (mainThreadTasks).
    await browser.startTracing(page, { categories: ['toplevel'] });
    const started = Date.now();
    await page.getByRole('button', { name: `Modifier les données XML (${RUN}-BIG)` }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier les données XML' });
    const card = dialog.getByRole('group', { name: 'Document joint grande photo.jpg' });
    await expect(card).toContainText('21,5\u00a0Mo', { timeout: 30_000 });
    const opened = Date.now() - started;
    const open = mainThreadTasks(await browser.stopTracing());

    await dialog.getByRole('textbox', { name: 'Commentaire' }).fill('Façade nord');
    await browser.startTracing(page, { categories: ['toplevel'] });
    const saveStarted = Date.now();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, "Les données XML de l'enregistrement ont été enregistrées.")).toBeVisible({
      timeout: 30_000,
    });
    const saved = Date.now() - saveStarted;
    const save = mainThreadTasks(await browser.stopTracing());
    const figures = {
      openMs: opened,
      openLongestTaskCpuMs: open.longestCpuMs,
      openLongestTaskMs: open.longestMs,
      openCpuMs: open.cpuMs,
      saveMs: saved,
      saveLongestTaskCpuMs: save.longestCpuMs,
      saveLongestTaskMs: save.longestMs,
      saveCpuMs: save.cpuMs,
    };
    console.log(`30 MB record: ${JSON.stringify(figures)}`);
    test.info().annotations.push({ type: '30 MB record', description: JSON.stringify(figures) });
    // No task of the page computes for long: it stays responsive while it opens and saves. Each
    // task is counted in CPU time of the main thread, which the machine's load hardly moves (its
    // wall time is mostly the wait for a core on a busy machine: 424 ms for 38 ms of CPU at load 8).
    // Parsing and serialising the 30 MB as XML in the page, or escaping them in one
    // JSON.stringify, costs several times the bound in one task (docs/testing.md).
    expect(figures.openLongestTaskCpuMs, JSON.stringify(figures)).toBeLessThan(FROZEN_TASK_CPU_MS);
    expect(figures.saveLongestTaskCpuMs, JSON.stringify(figures)).toBeLessThan(FROZEN_TASK_CPU_MS);

    const res = await page.request.get(`/api/sync-history?page=1&pageSize=25&search=${RUN}-BIG`);
    expect(ZSyncHistoryPage.parse(await res.json()).data[0]!.IDInterne).toBe(id(41));
    const stored = ZSyncHistoryXml.parse(
      await (await page.request.get(`/api/sync-history/${id(41)}/xml`)).json(),
    );
    expect(stored.enreg).toContain('<Commentaire>Façade nord</Commentaire>');
    expect(stored.sizeBytes).toBeGreaterThan(30_000_000);
    expect(stored.attachments).toMatchObject([{ name: 'grande photo.jpg', size: 22_500_000 }]);
  });

  test('has no axe violations, and shows one card per record on a phone', async ({ page }) => {
    // Two axe passes over a full page of records: over 30 s when the machine is loaded.
    test.setTimeout(60_000);
    await openSearched(page);
    await expect(page.getByText('Page 1 sur 2')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.getByRole('list', { name: 'Enregistrements importés' });
    await expect(cards.getByRole('listitem')).toHaveCount(25);
    await expect(cards.getByRole('listitem').first()).toContainText(ref(1));
    await expect(cards.getByRole('listitem').first()).toContainText('14/02/2024 09:58:30');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
