import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TConfigDiagnostic } from '@synchro/contracts';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import {
  LONG_EXE,
  cleanDiagnostic,
  invalidDiagnostic,
  repairAnswer,
  validDiagnostic,
} from '../../test/debug-fixtures.ts';
import { cutValue, frenchSpacing, readExtractedValue } from './debug-format.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function show(diagnostic: TConfigDiagnostic | Handler, extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/debug/xml-status': typeof diagnostic === 'function' ? diagnostic : () => json(diagnostic),
    ...extra,
  });
  renderApp('/debug');
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof mockApi>, url: string) =>
  fetchMock.mock.calls.filter(([input]) => input === url).length;

/** The value (dd) of a summary card. */
async function summary(label: string) {
  const term = await screen.findByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

/** The value cell of an extraction result. */
async function extracted(name: string) {
  const table = await screen.findByRole('table', { name: 'Valeurs extraites' });
  const row = within(table).getByText(name).closest('tr')!;
  return row.querySelectorAll('td')[1]!;
}

describe('Diagnostic', () => {
  it('shows the summary of a valid document for the signed-in installation', async () => {
    show(validDiagnostic);
    expect(
      await screen.findByRole('heading', { name: 'Diagnostic XML de Configuration', level: 1 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Diagnostic XML de Configuration – Synchro'));
    expect(
      await screen.findByText(/^Document de configuration du connecteur de l'installation/),
    ).toHaveTextContent("Document de configuration du connecteur de l'installation DEMOA001.");
    expect(await summary('XML présent')).toHaveTextContent('Oui');
    expect((await summary('Taille du XML')).textContent).toBe('48\u202f213 caractères');
    expect(await summary('XML valide')).toHaveTextContent('Oui');
    expect(await summary('Extraction possible')).toHaveTextContent('Oui');
    expect(screen.queryByText("Erreur d'analyse du XML")).not.toBeInTheDocument();
    // The double-escaping warning is listed with its line and count.
    const issues = screen.getByRole('list', { name: 'Problèmes détectés' });
    expect(within(issues).getByText('Avertissement')).toBeInTheDocument();
    expect(within(issues).getByText(/échappée\(s\) deux fois/)).toBeInTheDocument();
    expect(within(issues).getByText('Ligne 214 · 3 occurrences')).toBeInTheDocument();
    // A valid document with repairable faults still offers the repair.
    expect(screen.getByRole('button', { name: 'Réparer le XML automatiquement' })).toBeInTheDocument();
  });

  it('offers no repair for a clean document and says nothing was found', async () => {
    show(cleanDiagnostic);
    expect(await screen.findByText('Aucun problème détecté.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Réparer le XML automatiquement' })).not.toBeInTheDocument();
  });

  it('shows the parse error, its line and the context lines with the faulty one marked', async () => {
    show(invalidDiagnostic);
    expect(await summary('XML valide')).toHaveTextContent('Non');
    expect((await summary('Taille du XML')).textContent).toBe('1\u202f234\u202f567 caractères');
    expect(screen.getByText('Ligne 42 : « & » isolé (il doit être écrit « &amp; »)')).toBeInTheDocument();
    const lineTerm = screen.getByText(/^Ligne en cause/, { selector: 'dt' });
    expect(lineTerm.textContent).toBe('Ligne en cause\u00a0:');
    expect(lineTerm.nextElementSibling).toHaveTextContent(/^42$/);

    const context = screen.getByRole('region', { name: 'Contexte de la ligne 42' });
    const lines = within(context).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toHaveLength(7);
    expect(lines[0]).toHaveTextContent('Ligne 39 : <SALARIES>');
    const faulty = lines[3]!;
    expect(faulty).toHaveAttribute('aria-current', 'true');
    expect(faulty).toHaveTextContent('Ligne en erreur 42 : <Libelle>Martin & Fils</Libelle>');
    expect(lines.filter((line) => line.getAttribute('aria-current'))).toEqual([faulty]);
    // Whitespace of the document is kept.
    expect(within(faulty).getByText(/Martin/).textContent).toBe('      <Libelle>Martin & Fils</Libelle>');

    // Errors come before warnings.
    const issues = within(screen.getByRole('list', { name: 'Problèmes détectés' })).getAllByRole('listitem');
    expect(issues[0]).toHaveTextContent('Erreur');
    expect(issues[0]).toHaveTextContent('Ligne 42 · 1 occurrence');
    expect(issues[1]).toHaveTextContent('Avertissement');
    expect(screen.getByText('1 erreur, 1 avertissement')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Réparer le XML automatiquement' }),
    ).toHaveAccessibleDescription(
      /corriger les erreurs courantes.*sauvegarde de la configuration est faite avant toute modification/,
    );
  });

  it("shows 'NC' as 'Non Communiqué' and flags values read as 'Error:'", async () => {
    show(invalidDiagnostic);
    expect(await extracted('Serial')).toHaveTextContent(/^Non Communiqué$/);
    expect(await extracted('VersionConnecteur')).toHaveTextContent(/^6\.19\.4$/);
    const error = await extracted('NbSalaries');
    expect(within(error).getByText('Erreur de lecture')).toBeInTheDocument();
    expect(error).toHaveTextContent('Error: section CMB_SALARIES illisible (ligne 42)');
    expect(error.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
  });

  it('cuts long values to 50 characters and keeps the full value in a tooltip', async () => {
    show(validDiagnostic);
    const cell = await extracted('Exe');
    const value = within(cell).getByRole('button', { name: LONG_EXE });
    expect(value.textContent).toBe(`${LONG_EXE.slice(0, 50)}…`);
    value.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(LONG_EXE);
    expect(await extracted('NuxiAutomateLibelle')).toHaveTextContent(/^Version : 6\.11\.23\.9$/);
  });

  it('repairs after confirmation: POST {}, changes and backup shown, data refetched', async () => {
    let repaired = false;
    let release: (r: Response) => void = () => {};
    const fetchMock = show(() => json(repaired ? cleanDiagnostic : invalidDiagnostic), {
      'POST /api/debug/repair-xml': () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
      'GET /api/dashboard': () => json({}),
    });
    const button = await screen.findByRole('button', { name: 'Réparer le XML automatiquement' });
    const userCalls = calls(fetchMock, '/api/user');
    const statusCalls = calls(fetchMock, '/api/debug/xml-status');
    await userEvent.click(button);

    const dialog = await screen.findByRole('alertdialog', { name: 'Réparer le XML\u202f?' });
    expect(calls(fetchMock, '/api/debug/repair-xml')).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Réparer' }));
    const busy = within(dialog).getByRole('button', { name: 'Réparation en cours…' });
    expect(busy).toBeDisabled();
    // The page's button is busy too (hidden behind the modal dialog).
    const busyButtons = screen.getAllByRole('button', { name: 'Réparation en cours…', hidden: true });
    expect(busyButtons.filter((b) => b.getAttribute('aria-busy') === 'true')).toHaveLength(2);
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/debug/repair-xml')!;
    expect(post[1]!.method).toBe('POST');
    expect(post[1]!.body).toBe('{}');

    repaired = true;
    release(json(repairAnswer));
    expect(await screen.findByText('XML réparé')).toBeInTheDocument();
    // Testing Library reads U+00A0 as a space: the exact code point is checked on textContent.
    expect(screen.getAllByText('2 modifications effectuées. Sauvegarde : version 3.')[0]!.textContent).toBe(
      '2 modifications effectuées. Sauvegarde\u00a0: version 3.',
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    // Focus moves to the result (the repair button is gone with the faults).
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Réparation effectuée' })).toHaveFocus());

    const changes = screen.getByRole('list', { name: 'Modifications effectuées' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '1 «\u00a0&\u00a0» isolé remplacé par «\u00a0&amp;\u00a0». (ligne 42)',
      '1 entité échappée deux fois corrigée. (ligne 12)',
    ]);
    expect(screen.getByText('Sauvegarde : version 3').textContent).toBe('Sauvegarde\u00a0: version 3');
    // The diagnostic and the user are refetched (the dashboard is invalidated too).
    await waitFor(() => expect(calls(fetchMock, '/api/debug/xml-status')).toBeGreaterThan(statusCalls));
    await waitFor(() => expect(calls(fetchMock, '/api/user')).toBeGreaterThan(userCalls));
    expect(await summary('XML valide')).toHaveTextContent('Oui');
    expect(screen.queryByText("Erreur d'analyse du XML")).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Réparer le XML automatiquement' })).not.toBeInTheDocument();
  });

  it('shows the server message in a destructive toast when the repair is refused (422)', async () => {
    const message =
      "Le document ne peut pas être réparé sans deviner : la balise <Terminal> de la ligne 88 n'est jamais fermée.";
    show(invalidDiagnostic, { 'POST /api/debug/repair-xml': () => json({ message }, 422) });
    await userEvent.click(await screen.findByRole('button', { name: 'Réparer le XML automatiquement' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Réparer' }),
    );
    const text = (await screen.findAllByText(message, { exact: true }))[0]!;
    expect(text.closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
    expect(screen.getAllByText('Réparation impossible')[0]).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Modifications effectuées' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Réparer le XML automatiquement' })).toHaveFocus(),
    );
  });

  it('refreshes on demand and offers to retry after a failure', async () => {
    let fail = true;
    const fetchMock = show(() =>
      fail ? json({ message: 'Base indisponible' }, 500) : json(validDiagnostic),
    );
    expect(await screen.findByText('Base indisponible')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Impossible de charger le diagnostic');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await summary('XML valide')).toHaveTextContent('Oui');
    const before = calls(fetchMock, '/api/debug/xml-status');
    await userEvent.click(screen.getByRole('button', { name: 'Actualiser' }));
    await waitFor(() => expect(calls(fetchMock, '/api/debug/xml-status')).toBe(before + 1));
  });
});

describe('extraction values', () => {
  it('cuts at 50 code points only when longer', () => {
    expect(cutValue('a'.repeat(50))).toEqual({ shown: 'a'.repeat(50), cut: false });
    expect(cutValue('a'.repeat(51))).toEqual({ shown: `${'a'.repeat(50)}…`, cut: true });
    expect(cutValue(`${'é'.repeat(49)}😀😀`).shown).toBe(`${'é'.repeat(49)}😀…`);
  });

  it('applies French spacing to the server texts', () => {
    expect(frenchSpacing('Ligne 42 : « & » isolé ; voir ?')).toBe(
      'Ligne 42\u00a0: «\u00a0&\u00a0» isolé\u202f; voir\u202f?',
    );
    expect(frenchSpacing('C:\\Exe a:b')).toBe('C:\\Exe a:b');
  });

  it('reads NC and Error: values', () => {
    expect(readExtractedValue('NC')).toEqual({ kind: 'not-communicated' });
    expect(readExtractedValue('Error: x').kind).toBe('error');
    expect(readExtractedValue('nc').kind).toBe('value');
  });
});
