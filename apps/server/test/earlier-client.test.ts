import {
  CONFIG_SECTIONS,
  syncHistoryRecordPath,
  terminalPayloadOf,
  ZDataListsResponse,
  ZSaveResponse,
  ZSyncHistoryXml,
  ZSyncHistoryXmlSaved,
  ZTerminalsResponse,
} from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { getConfiguration } from '../src/domain/configurations.ts';
import { signIn, useTestApp } from './helpers/app.ts';
import { connectorCall, connectorInstallation } from './helpers/connector.ts';

/**
 * The earlier console's own client against our server (docs/earlier-client.md): each of its three
 * last exchanges replayed as it makes them (its headers, its bodies), then what is stored, what
 * the connector gets and what our own screens show and save.
 */

const ctx = useTestApp();

let counter = 0;
async function installation() {
  const inst = await connectorInstallation(ctx.db, `EARLIER${++counter}`);
  return { ...inst, cookie: await signIn(ctx.app, inst.syncId) };
}

/** What that client's fetch sends: its cookie, fetch's default Accept, JSON bodies, same origin. */
const earlierHeaders = (cookie: string, body = false) => ({
  host: 'console.example',
  cookie,
  accept: '*/*',
  'sec-fetch-site': 'same-origin',
  ...(body ? { 'content-type': 'application/json', origin: 'http://console.example' } : {}),
});

// ------------------------------------------------------------------------------------------------
// The record's XML

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A record as the connector sends and stores it: its text convention, a declaration, CRLF. */
const STORED = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<SyncNuxiDev>',
  '  <DateHeureExport>20251114091200000</DateHeureExport>',
  '  <Device>Tablette-3</Device>',
  '  <Table>ged</Table>',
  '  <Enregistrement>',
  '    <Libelle>Photo S3 Ã©tÃ©</Libelle>',
  '    <NomDocument>Photo aprÃ¨s travaux 4.png</NomDocument>',
  `    <BinaireDocument>${PNG}</BinaireDocument>`,
  '  </Enregistrement>',
  '</SyncNuxiDev>',
].join('\r\n');

/**
 * What that client sends after the user changed the label to « Photo S3 été – façade »: the
 * document as the browser serialises it (no declaration, LF line ends), every leaf re-encoded the
 * connector's way (`unescape(encodeURIComponent(v))`: the en dash is E2 80 93).
 */
const SENT = [
  '<SyncNuxiDev>',
  '  <DateHeureExport>20251114091200000</DateHeureExport>',
  '  <Device>Tablette-3</Device>',
  '  <Table>ged</Table>',
  '  <Enregistrement>',
  '    <Libelle>Photo S3 Ã©tÃ© \u00e2\u0080\u0093 faÃ§ade</Libelle>',
  '    <NomDocument>Photo aprÃ¨s travaux 4.png</NomDocument>',
  `    <BinaireDocument>${PNG}</BinaireDocument>`,
  '  </Enregistrement>',
  '</SyncNuxiDev>',
].join('\n');

/** That client's steps from the decoded document it read: serialise, re-encode each leaf. */
function asTheEarlierClientSends(shown: string, edits: Record<string, string> = {}): string {
  return shown
    .replace(/^<\?xml[^>]*\?>\r?\n?/, '')
    .replace(/\r\n/g, '\n')
    .replace(
      /<(\w+)>([^<]*)<\/\1>/g,
      (_m, tag: string, value: string) =>
        `<${tag}>${unescape(encodeURIComponent(edits[tag] ?? value))}</${tag}>`,
    );
}

async function storedEnreg(installationId: string, id: string): Promise<string | undefined> {
  const [row] = await ctx.db.query<{ enreg: string }>(
    'SELECT enreg FROM import_records WHERE installation_id = $1 AND id_interne = $2',
    [installationId, id],
  );
  return row?.enreg;
}

describe('the record XML saved by that client is stored once, not encoded again', () => {
  it('its exchange: GET decoded, PUT of the re-encoded document; stored as sent, shown and queued right', async () => {
    const inst = await installation();
    const sent = await connectorCall(ctx.app, 'POST', '/import-records', inst.token, {
      records: [
        {
          IDInterne: 'NUXIGEDA0001',
          TypeEnreg: 'GED',
          RefDoc: 'GED_0001',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 0,
          TypeElement: 'CrÃ©ation',
          Etat: 0,
          Enreg: STORED,
        },
      ],
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const read = await ctx.app.inject({
      url: syncHistoryRecordPath('NUXIGEDA0001', 'xml'),
      headers: earlierHeaders(inst.cookie),
    });
    expect(read.statusCode).toBe(200);
    const shown = ZSyncHistoryXml.parse(read.json()).enreg;
    expect(shown).toContain('<Libelle>Photo S3 été</Libelle>');
    expect(asTheEarlierClientSends(shown, { Libelle: 'Photo S3 été – façade' })).toBe(SENT);

    const put = await ctx.app.inject({
      method: 'PUT',
      url: syncHistoryRecordPath('NUXIGEDA0001', 'xml'),
      headers: earlierHeaders(inst.cookie, true),
      payload: JSON.stringify({ xml: SENT }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ZSyncHistoryXmlSaved.parse(put.json()).IDInterne).toBe('NUXIGEDA0001');

    // Stored as sent: in the connector's convention once (before: « Photo S3 Ã\u0083Â©tÃ\u0083Â© »).
    expect(await storedEnreg(inst.id, 'NUXIGEDA0001')).toBe(SENT);
    // Our screens show it decoded once, the attached document's name too.
    const view = ZSyncHistoryXml.parse(
      (
        await ctx.app.inject({
          url: syncHistoryRecordPath('NUXIGEDA0001', 'xml'),
          headers: { cookie: inst.cookie },
        })
      ).json(),
    );
    expect(view.enreg).toContain('<Libelle>Photo S3 été – façade</Libelle>');
    expect(view.attachments.map((a) => a.name)).toEqual(['Photo après travaux 4.png']);
    // The connector gets it in its own convention, as it would have written it.
    const queue = await connectorCall(ctx.app, 'GET', '/import-records/queue?limit=10', inst.token);
    expect(queue.json<{ records: { IDInterne: string; Enreg: string }[] }>().records).toEqual([
      expect.objectContaining({ IDInterne: 'NUXIGEDA0001', Enreg: SENT }),
    ]);
  });

  it('saves alternating between that client and our screens never encode twice', async () => {
    const inst = await installation();
    const stored = STORED.replace('Photo S3 Ã©tÃ©', 'Ã\u0089tiquette Ã\u00a0 l’accueil');
    await connectorCall(ctx.app, 'POST', '/import-records', inst.token, {
      records: [
        {
          IDInterne: 'ALT1',
          TypeEnreg: 'GED',
          RefDoc: 'R',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 0,
          TypeElement: 'x',
          Etat: 1,
          Enreg: stored,
        },
      ],
    });
    const url = syncHistoryRecordPath('ALT1', 'xml');
    const shownNow = async () =>
      ZSyncHistoryXml.parse((await ctx.app.inject({ url, headers: { cookie: inst.cookie } })).json()).enreg;
    const put = async (xml: string, headers: Record<string, string>) => {
      const res = await ctx.app.inject({ method: 'PUT', url, headers, payload: { xml } });
      expect(res.statusCode, res.body).toBe(200);
    };
    for (let round = 1; round <= 3; round++) {
      // That client: the document re-encoded, a field changed.
      await put(
        asTheEarlierClientSends(await shownNow(), { Device: `Tablette-${round}é` }),
        earlierHeaders(inst.cookie, true),
      );
      expect(await shownNow()).toContain(`<Libelle>Étiquette à l’accueil</Libelle>`);
      expect(await shownNow()).toContain(`<Device>Tablette-${round}é</Device>`);
      // Our screen (the XML editor): the decoded document, a field changed.
      await put((await shownNow()).replace('</Device>', ' ✓</Device>'), { cookie: inst.cookie });
      expect(await shownNow()).toContain(`<Device>Tablette-${round}é ✓</Device>`);
      expect(await shownNow()).toContain(`<NomDocument>Photo après travaux 4.png</NomDocument>`);
    }
    expect(await storedEnreg(inst.id, 'ALT1')).toContain(
      '<Libelle>Ã\u0089tiquette Ã\u00a0 lâ\u0080\u0099accueil</Libelle>',
    );
  });

  it('our screens’ save of decoded text is encoded once, as before', async () => {
    const inst = await installation();
    await connectorCall(ctx.app, 'POST', '/import-records', inst.token, {
      records: [
        {
          IDInterne: 'OURS1',
          TypeEnreg: 'GED',
          RefDoc: 'R',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 0,
          TypeElement: 'x',
          Etat: 1,
          Enreg: STORED,
        },
      ],
    });
    const url = syncHistoryRecordPath('OURS1', 'xml');
    const shown = ZSyncHistoryXml.parse(
      (await ctx.app.inject({ url, headers: { cookie: inst.cookie } })).json(),
    ).enreg;
    const edited = shown.replace('Photo S3 été', 'Photo S3 été — 12 €');
    const res = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: { cookie: inst.cookie },
      payload: { xml: edited },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await storedEnreg(inst.id, 'OURS1')).toBe(
      STORED.replace('Photo S3 Ã©tÃ©', 'Photo S3 Ã©tÃ© \u00e2\u0080\u0094 12 \u00e2\u0082\u00ac'),
    );
  });
});

// ------------------------------------------------------------------------------------------------
// The log dialog

describe('the log read by that client (res.json(), Accept: */*) is a JSON string', () => {
  it('its exchange, and ours (Accept: text/plain) still text', async () => {
    const inst = await installation();
    await connectorCall(ctx.app, 'POST', '/import-records', inst.token, {
      records: [
        {
          IDInterne: 'LOG1',
          TypeEnreg: 'GED',
          RefDoc: 'R',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 0,
          TypeElement: 'x',
          Etat: 1,
          Enreg: '<r/>',
          Log: 'Import rÃ©ussi\r\nÃ\u0089tape 2 : terminÃ©e "ok"',
        },
        {
          IDInterne: 'LOG2',
          TypeEnreg: 'GED',
          RefDoc: 'R',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 0,
          TypeElement: 'x',
          Etat: 1,
          Enreg: '<r/>',
        },
      ],
    });
    const log = (id: string, headers: Record<string, string>) =>
      ctx.app.inject({ url: syncHistoryRecordPath(id, 'log'), headers });

    const theirs = await log('LOG1', earlierHeaders(inst.cookie));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(theirs.headers.vary).toContain('Accept');
    expect(theirs.json()).toBe('Import réussi\r\nÉtape 2 : terminée "ok"');
    // An empty log: "" (that client then shows « Aucun log disponible » itself).
    expect((await log('LOG2', earlierHeaders(inst.cookie))).json()).toBe('');
    // Asking for JSON by name, or with no Accept at all: the same.
    expect((await log('LOG1', { cookie: inst.cookie, accept: 'application/json' })).json()).toBe(
      theirs.json(),
    );
    expect((await log('LOG1', { cookie: inst.cookie })).json()).toBe(theirs.json());

    const ours = await log('LOG1', { cookie: inst.cookie, accept: 'text/plain' });
    expect(ours.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(ours.body).toBe('Import réussi\r\nÉtape 2 : terminée "ok"');
    expect((await log('LOG2', { cookie: inst.cookie, accept: 'text/plain' })).body).toBe('');
  });
});

// ------------------------------------------------------------------------------------------------
// The terminal save

describe('the terminal saved by that client in the earlier nested shape', () => {
  async function lists(cookie: string) {
    const res = await ctx.app.inject({ url: CONFIG_SECTIONS.dataLists.getPath, headers: { cookie } });
    return ZDataListsResponse.parse(res.json()).data;
  }
  async function terminals(cookie: string) {
    const res = await ctx.app.inject({ url: CONFIG_SECTIONS.terminals.getPath, headers: { cookie } });
    return ZTerminalsResponse.parse(res.json());
  }
  const patch = (
    cookie: string,
    body: string | undefined,
    headers: Record<string, string> = earlierHeaders(cookie, body !== undefined),
  ) =>
    ctx.app.inject({
      method: 'PATCH',
      url: '/api/config/terminal',
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    });

  it('its exchange: stored as the same save in the spec’s flat shape would store it; our screen shows and saves it', async () => {
    const a = await installation();
    const b = await installation();
    const data = await lists(a.cookie);
    const [tech] = data.techniciens;
    const [depot] = data.depots;
    const [c1, c2] = data.salaries;
    if (!tech || !depot || !c1 || !c2) throw new Error('fixture lists');
    const before = await terminals(a.cookie);
    const t = before.data.terminals[24];
    if (!t) throw new Error('fixture terminal #25');
    const [f1, f2, f3] = t.authorizations;
    if (!f1 || !f2 || !f3) throw new Error('fixture authorizations');

    const nested = {
      terminalIndex: 24,
      terminal: {
        Nom: 'Tablette dépôt nord',
        ID_Tablette: 'TAB-NORD-25',
        ID_Smartphone: '',
        Filtres: {
          Techniciens: { Technicien: { IDInterne: tech.IDInterne } },
          Depots: { Depot: { IDInterne: depot.IDInterne } },
          Commerciaux: {
            Commercial: [
              { IDInterne: c1.IDInterne, Libelle: `${c1.Nom} ${c1.Prenom}` },
              { IDInterne: c2.IDInterne, Libelle: `${c2.Nom} ${c2.Prenom}` },
            ],
          },
        },
        Autorisations: {
          Autorisation: [
            { ID: f1.ID, Autorise: '1', Libelle: f1.Libelle },
            { ID: f2.ID, Autorise: '-1', Libelle: f2.Libelle },
            { ID: f3.ID, Autorise: '0', Libelle: f3.Libelle },
          ],
        },
      },
    };
    const res = await patch(a.cookie, JSON.stringify(nested));
    expect(res.statusCode, res.body).toBe(200);
    expect(ZSaveResponse.parse(res.json())).toEqual({
      message: CONFIG_SECTIONS.terminals.save.success,
      version: before.version + 1,
    });

    // The same save in the flat shape, on an installation with the same configuration.
    const flat = terminalPayloadOf(t, {
      Nom: 'Tablette dépôt nord',
      ID_Tablette: 'TAB-NORD-25',
      ID_Smartphone: '',
      technicienId: tech.IDInterne,
      depotId: depot.IDInterne,
      commerciaux: [
        { IDInterne: c1.IDInterne, Libelle: `${c1.Nom} ${c1.Prenom}` },
        { IDInterne: c2.IDInterne, Libelle: `${c2.Nom} ${c2.Prenom}` },
      ],
      authorizations: [
        { ID: f1.ID, Autorise: 1, Libelle: f1.Libelle },
        { ID: f2.ID, Autorise: -1, Libelle: f2.Libelle },
        { ID: f3.ID, Autorise: 0, Libelle: f3.Libelle },
      ],
    });
    const flatRes = await patch(b.cookie, JSON.stringify(flat), {
      cookie: b.cookie,
      'content-type': 'application/json',
    });
    expect(flatRes.statusCode, flatRes.body).toBe(200);
    expect((await getConfiguration(ctx.db, a.id)).text).toBe((await getConfiguration(ctx.db, b.id)).text);

    // Our screen shows it…
    const after = await terminals(a.cookie);
    const shown = after.data.terminals[24];
    expect(shown).toMatchObject({
      Nom: 'Tablette dépôt nord',
      ID_Tablette: 'TAB-NORD-25',
      declared: true,
      technicienId: tech.IDInterne,
      depotId: depot.IDInterne,
      commerciaux: [
        { IDInterne: c1.IDInterne, Libelle: `${c1.Nom} ${c1.Prenom}`.trim() },
        { IDInterne: c2.IDInterne, Libelle: `${c2.Nom} ${c2.Prenom}`.trim() },
      ],
    });
    expect(shown?.authorizations.slice(0, 3).map((x) => x.Autorise)).toEqual([1, -1, 0]);
    // …and saves it back unchanged (no new version), then changes it.
    if (!shown) throw new Error('terminal #25');
    const same = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/config/terminal',
      headers: { cookie: a.cookie, 'if-match': `"${after.version}"` },
      payload: terminalPayloadOf(shown),
    });
    expect(ZSaveResponse.parse(same.json()).version).toBe(after.version);
    const changed = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/config/terminal',
      headers: { cookie: a.cookie, 'if-match': `"${after.version}"` },
      payload: terminalPayloadOf(shown, { ID_Smartphone: 'PHONE-25' }),
    });
    expect(ZSaveResponse.parse(changed.json()).version).toBe(after.version + 1);
    expect((await terminals(a.cookie)).data.terminals[24]).toMatchObject({
      ID_Smartphone: 'PHONE-25',
      Nom: 'Tablette dépôt nord',
    });
  });

  it('its PATCH without a body (its own defect today): a French 400 naming what is missing, nothing written', async () => {
    const inst = await installation();
    const before = await getConfiguration(ctx.db, inst.id);
    for (const body of [undefined, '{}', 'null']) {
      const res = await patch(inst.cookie, body, {
        ...earlierHeaders(inst.cookie),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        origin: 'http://console.example',
      });
      expect(res.statusCode, String(body)).toBe(400);
      expect(res.json()).toEqual({
        code: 'VALIDATION',
        message:
          'Requête invalide. terminalIndex : Impossible de déterminer le terminal à mettre à jour ; terminal : ' +
          'champ obligatoire\u00a0: les champs du terminal (Nom, ID_Tablette, ID_Smartphone, technicienId, ' +
          'depotId, commerciaux, authorizations\u202f; ou Filtres et Autorisations comme les envoyait la ' +
          'console précédente)',
      });
    }
    expect(await getConfiguration(ctx.db, inst.id)).toEqual(before);
  });
});
