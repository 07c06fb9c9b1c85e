import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { demoUser } from '../../test/fixtures.ts';
import { DEVIS_XML, base64Of, gedXml, historyPage, historyRow } from '../../test/history-fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';

const XML_PATH = '/api/sync-history/NUXIDEV0000/xml';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

beforeEach(() => {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }),
  );
});

function xmlAnswer(enreg: string) {
  return json({ enreg, sizeBytes: new TextEncoder().encode(enreg).length, attachments: [] });
}

function show(getXml: Handler, putXml?: Handler) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/sync-history': () => json(historyPage([historyRow(0)])),
    [`GET ${XML_PATH}`]: getXml,
    ...(putXml ? { [`PUT ${XML_PATH}`]: putXml } : {}),
  });
  renderApp('/import-history');
  return fetchMock;
}

async function openEditor() {
  await userEvent.click(
    await screen.findByRole('button', { name: 'Modifier les données XML (XX_1000)' }, { timeout: 15_000 }),
  );
  const dialog = await screen.findByRole('dialog', { name: 'Modifier les données XML' });
  await within(dialog).findByText(/champs ·/);
  return dialog;
}

const putCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

const toastText = async (text: string | RegExp) => (await screen.findAllByText(text))[0];

describe('Modifier les données XML', () => {
  it('shows the leaf fields grouped by parent, each labelled and editable', async () => {
    show(() => xmlAnswer(DEVIS_XML));
    const dialog = await openEditor();
    expect(within(dialog).getByText(/DocumentDEVIS · XX_1000 · 14\/11\/2025 09:12:07/)).toBeInTheDocument();
    const groups = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.firstChild?.textContent);
    expect(groups).toEqual([
      'SyncNuxiDev',
      'Enregistrement',
      'Enregistrement › Lignes › Ligne 1',
      'Enregistrement › Lignes › Ligne 2',
    ]);
    expect(within(dialog).getByRole('textbox', { name: 'FacturationNom' })).toHaveValue('Ciselure & Fils');
    expect(within(dialog).getByRole('textbox', { name: 'Note' })).toHaveValue(
      'Livrer avant midi\nCode portail 1234',
    );
    expect(within(dialog).getAllByRole('textbox', { name: 'Ligne_Designation' })).toHaveLength(2);
    expect(within(dialog).getByRole('button', { name: 'Enregistrer' })).toBeDisabled();

    // The filter keeps the fields whose name or value holds the text.
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Filtrer les champs' }), 'ligne_q');
    expect(within(dialog).getAllByRole('textbox', { name: 'Ligne_Quantite' })).toHaveLength(2);
    expect(within(dialog).queryByRole('textbox', { name: 'FacturationNom' })).not.toBeInTheDocument();
  });

  it('saves the serialised record with the value escaped once, then closes', async () => {
    let sent = '';
    const fetchMock = show(
      () => xmlAnswer(DEVIS_XML),
      (init) => {
        sent = (JSON.parse(String(init.body)) as { xml: string }).xml;
        return json({
          message: "Les données XML de l'enregistrement ont été enregistrées.",
          IDInterne: 'NUXIDEV0000',
          sizeBytes: sent.length,
        });
      },
    );
    const dialog = await openEditor();
    const nom = within(dialog).getByRole('textbox', { name: /^FacturationNom/ });
    await userEvent.clear(nom);
    await userEvent.type(nom, 'Durand & Fils <SARL>');
    expect(within(dialog).getByText('1 champ modifié')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await toastText("Les données XML de l'enregistrement ont été enregistrées.")).toBeInTheDocument();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(putCalls(fetchMock)).toHaveLength(1);
    expect(sent).toContain('<FacturationNom>Durand &amp; Fils &lt;SARL&gt;</FacturationNom>');
    expect(sent.startsWith('\ufeff<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(sent).toBe(
      DEVIS_XML.replace('Ciselure &amp; Fils', 'Durand &amp; Fils &lt;SARL&gt;').replace(
        '<IDInterneDepot />',
        '<IDInterneDepot/>',
      ),
    );
  });

  it('refuses a record over 50 MB before sending anything', async () => {
    const big = gedXml('plan.pdf', base64Of(39_500_000));
    const fetchMock = show(
      () => xmlAnswer(big),
      () => json({}),
    );
    const dialog = await openEditor();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Commentaire' }), ' !');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Le fichier XML est trop volumineux (50,2 MB). La taille maximale autorisée est de 50MB.',
    );
    expect(putCalls(fetchMock)).toHaveLength(0);
  });

  it.each([
    [
      413,
      {
        message:
          'Le fichier XML est trop volumineux pour être traité par le serveur (51,2 MB ; au plus 50 MB).',
        error: 'x',
      },
      'Le fichier XML est trop volumineux pour être traité par le serveur (51,2 MB ; au plus 50 MB).',
    ],
    [
      413,
      '<html>Request Entity Too Large</html>',
      /^Le fichier XML est trop volumineux pour être traité par le serveur \(0,0 MB\)\.$/,
    ],
    [
      400,
      { message: "Le XML de l'enregistrement est invalide : x (ligne 1, colonne 2)", error: 'idem' },
      "Le XML de l'enregistrement est invalide : x (ligne 1, colonne 2)",
    ],
    [502, '<html>Bad Gateway</html>', 'Échec de la mise à jour'],
  ])('says why a save was refused (%s)', async (status, body, message) => {
    show(
      () => xmlAnswer(DEVIS_XML),
      () =>
        typeof body === 'string'
          ? new Response(body, { status, headers: { 'Content-Type': 'text/html' } })
          : json(body, status),
    );
    const dialog = await openEditor();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Device' }), 'X');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    // Nothing typed is lost: the dialog stays with the edit.
    expect(within(dialog).getByRole('textbox', { name: /^Device/ })).toHaveValue('8667183f619bbe98X');
  });

  it("falls back on 'Impossible de sauvegarder les modifications' when the request never answers", async () => {
    show(
      () => xmlAnswer(DEVIS_XML),
      () => Promise.reject(new TypeError('Failed to fetch')),
    );
    const dialog = await openEditor();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Device' }), 'X');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Impossible de sauvegarder les modifications',
    );
  });

  it("names the field of a value that cannot be encoded ('Erreur d'encodage pour le champ …')", async () => {
    const fetchMock = show(
      () => xmlAnswer(DEVIS_XML),
      () => json({}),
    );
    const dialog = await openEditor();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Device' }), {
      target: { value: 'A\ud800' },
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "Erreur d'encodage pour le champ Device",
    );
    expect(putCalls(fetchMock)).toHaveLength(0);
  });

  it('asks before leaving with edits, and closes at once without', async () => {
    show(() => xmlAnswer(DEVIS_XML));
    let dialog = await openEditor();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    dialog = await openEditor();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Device' }), 'X');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Continuer la modification' }));
    expect(within(dialog).getByRole('textbox', { name: /^Device/ })).toHaveValue('8667183f619bbe98X');

    await userEvent.keyboard('{Escape}');
    const again = await screen.findByRole('alertdialog', { name: 'Modifications non sauvegardées' });
    await userEvent.click(within(again).getByRole('button', { name: 'Fermer sans sauvegarder' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it.each([
    [
      'an unknown record',
      () => json({ message: 'Enregistrement introuvable.' }, 404),
      'Enregistrement introuvable.',
    ],
    ['an empty record', () => xmlAnswer(''), 'Document XML original non disponible'],
    [
      'a DOCTYPE',
      () => xmlAnswer('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'),
      /DOCTYPE/,
    ],
  ])("closes with 'Impossible de charger les données XML' on %s", async (_case, answer, detail) => {
    show(answer);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Modifier les données XML (XX_1000)' }, { timeout: 15_000 }),
    );
    expect(await toastText('Impossible de charger les données XML')).toBeInTheDocument();
    expect(await toastText(detail)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Modifier les données XML' })).not.toBeInTheDocument(),
    );
  });
});

describe('Attached documents', () => {
  it('shows the document as its name and size, never its base64, and downloads it', async () => {
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    show(() => xmlAnswer(gedXml('photo chantier.jpg', base64Of(300_000))));
    const dialog = await openEditor();
    const card = within(dialog).getByRole('group', { name: 'Document joint photo chantier.jpg' });
    expect(card).toHaveTextContent('Document joint (BinaireDocument)');
    expect(card.textContent).toContain('293\u00a0Ko');
    expect(within(dialog).queryByRole('textbox', { name: 'BinaireDocument' })).not.toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('textbox')
        .every((t) => (t as HTMLInputElement).value.length < 100),
    ).toBe(true);

    await userEvent.click(within(card).getByRole('button', { name: /Télécharger/ }));
    expect(await toastText('Document téléchargé avec succès')).toBeInTheDocument();
    expect(names).toEqual(['photo chantier.jpg']);

    // The name is a field: the card follows it; without a name the download says what is missing.
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'NomDocument' }));
    const unnamed = within(dialog).getByRole('group', { name: 'Document joint (sans nom)' });
    await userEvent.click(within(unnamed).getByRole('button', { name: /Télécharger/ }));
    expect(await toastText('Nom du document ou contenu manquant')).toBeInTheDocument();
    expect(names).toHaveLength(1);
  });

  it("says 'Impossible de télécharger le document' when the content is not base64", async () => {
    show(() => xmlAnswer(gedXml('plan.pdf', 'pas*du*base64')));
    const dialog = await openEditor();
    const card = within(dialog).getByRole('group', { name: 'Document joint plan.pdf' });
    await userEvent.click(within(card).getByRole('button', { name: /Télécharger/ }));
    expect(await toastText('Impossible de télécharger le document')).toBeInTheDocument();
  });
});
