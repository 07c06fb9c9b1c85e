import {
  CONFIG_SECTION_KEYS,
  CONFIG_SECTIONS,
  CONFLICT_MESSAGE,
  SECRET_PLACEHOLDER,
  terminalPayloadOf,
  ZPlanningsList,
  ZSaveResponse,
  type TSaveableSectionKey,
} from '@synchro/contracts';
import { EDIT_SECTION, sectionOf, type EditKind } from '@synchro/config-xml';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, useTestApp } from '../../../test/helpers/app.ts';
import { findInstallationBySyncId } from '../../domain/installations.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- views are checked through their JSON */
type View = any;

let logs = '';

const ctx = useTestApp({
  logLevel: 'debug',
  logStream: new Writable({
    write(chunk: Buffer, _enc, done) {
      logs += chunk.toString();
      done();
    },
  }),
});

let counter = 0;
/** A new installation with the fixture configuration, signed in. */
async function fresh(configText = FIXTURE_CONFIG) {
  const syncId = `CFG${++counter}`;
  const { installation } = await addInstallation(ctx.db, { syncId, configText });
  const cookie = await signIn(ctx.app, syncId);
  return { id: installation.id, syncId, cookie };
}

async function stored(id: string) {
  const [row] = await ctx.db.query<{ text: string; version: number }>(
    'SELECT text, version FROM configurations WHERE installation_id = $1',
    [id],
  );
  if (!row) throw new Error('no configuration');
  return row;
}

async function getView(cookie: string, path: string): Promise<{ version: number; data: View; etag: string }> {
  const res = await ctx.app.inject({ url: path, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ version: number; data: View }>();
  return { ...body, etag: String(res.headers.etag) };
}

interface Endpoint {
  /** The registry's key of the section. */
  key: TSaveableSectionKey;
  kind: EditKind;
  method: 'POST' | 'PATCH';
  url: string;
  view: string;
  message: string;
  toPayload: (v: View) => View;
  change: (p: View) => void;
  changed: (v: View) => boolean;
  invalid: View;
  invalidMessage: RegExp;
}

const ENDPOINTS: Endpoint[] = [
  {
    key: 'sources',
    kind: 'sources',
    method: 'POST',
    url: '/api/database/sources',
    view: CONFIG_SECTIONS.sources.getPath,
    message: 'Les paramètres de connexion ont été sauvegardés',
    toPayload: (v) => ({ sources: v.sources }),
    // Source 2 holds no password: moving source 1 would need its password typed again.
    change: (p) => {
      p.sources[1].Serveur = 'SRV-TEST-1';
    },
    changed: (v) => v.sources[1].Serveur === 'SRV-TEST-1',
    invalid: { sources: [{ Provider: 1 }] },
    invalidMessage: /^Requête invalide\. sources\.0\./,
  },
  {
    key: 'externalLinks',
    kind: 'externalLinks',
    method: 'POST',
    url: '/api/database/external-links',
    view: CONFIG_SECTIONS.externalLinks.getPath,
    message: 'Les liaisons externes ont été mises à jour avec succès.',
    toPayload: (v) => ({
      Dossier_Import: v.Dossier_Import,
      Dossier_Export: v.Dossier_Export,
      Liaisons: v.Liaisons,
    }),
    change: (p) => {
      p.Dossier_Import = 'C:\\Import\\Test é';
    },
    changed: (v) => v.Dossier_Import === 'C:\\Import\\Test é',
    invalid: { Dossier_Import: 5, Dossier_Export: '', Liaisons: [] },
    invalidMessage: /^Requête invalide\. Dossier_Import : /,
  },
  {
    key: 'externalCalendars',
    kind: 'externalCalendars',
    method: 'POST',
    url: '/api/database/external-calendars',
    view: CONFIG_SECTIONS.externalCalendars.getPath,
    message: 'Les agendas externes ont été mis à jour avec succès.',
    toPayload: (v) => ({ agendaType: v.agendaType, mappings: v.mappings }),
    change: (p) => {
      p.agendaType = p.agendaType === 'Microsoft' ? 'Google' : 'Microsoft';
      p.mappings = [{ ID_Salarie: '-1', ID_Agenda: '-1' }];
    },
    changed: (v) => v.mappings.length === 1 && v.mappings[0].ID_Salarie === '-1',
    invalid: { agendaType: 'Yahoo', mappings: [] },
    invalidMessage: /Type d'agenda attendu/,
  },
  {
    key: 'syncData',
    kind: 'syncData',
    method: 'POST',
    url: '/api/sync-data/save',
    view: CONFIG_SECTIONS.syncData.getPath,
    message: 'Les données de synchronisation ont été sauvegardées',
    toPayload: (v) => ({ syncData: v.syncData }),
    change: (p) => {
      p.syncData[0].Histo = 4321;
    },
    changed: (v) => v.syncData[0].Histo === 4321,
    invalid: { syncData: [{ Reference: 'X', Complete: true, Libelle: '', Histo: -5 }] },
    invalidMessage: /Historique/,
  },
  {
    key: 'exclusions',
    kind: 'exclusions',
    method: 'POST',
    url: '/api/database/exclusions',
    view: CONFIG_SECTIONS.exclusions.getPath,
    message: 'Les exclusions ont été mises à jour.',
    toPayload: (v) => ({ exclusions: v.exclusions }),
    change: (p) => {
      p.exclusions.push({ id: 'ZZTEST|', libelle: 'Famille test', type: 'ItemFamily' });
    },
    changed: (v) => v.exclusions.some((e: View) => e.id === 'ZZTEST|'),
    invalid: { exclusions: [{ id: 'A|', libelle: '', type: 'Foo' }] },
    invalidMessage: /Type d'exclusion attendu/,
  },
  {
    key: 'complement',
    kind: 'complement',
    method: 'POST',
    url: '/api/database/complement',
    view: CONFIG_SECTIONS.complement.getPath,
    message: 'Les paramètres complémentaires ont été mis à jour.',
    toPayload: (v) => ({
      googleApiKey: v.googleApiKey,
      driveType: v.driveType,
      mailRapport: v.mailRapport,
      scriptComplementaire: v.scriptComplementaire,
    }),
    change: (p) => {
      p.mailRapport.mailDestinataire = 'test@example.fr';
    },
    changed: (v) => v.mailRapport.mailDestinataire === 'test@example.fr',
    // Valid but for the drive type, which the edit refuses (not one stored).
    invalid: {
      googleApiKey: '',
      driveType: 'ftp',
      mailRapport: {
        envoyerRapport: false,
        mailDestinataire: '',
        notifErr: false,
        notifInf: false,
        notifImp: false,
        globaliserEnregImport: false,
      },
      scriptComplementaire: '',
    },
    invalidMessage: /Type de drive attendu/,
  },
  {
    key: 'planifications',
    kind: 'planifications',
    method: 'POST',
    url: '/api/plannings',
    view: CONFIG_SECTIONS.planifications.getPath,
    message: 'Les planifications ont été sauvegardées avec succès',
    toPayload: (v) => ({ plannings: v.plannings }),
    change: (p) => {
      p.plannings.push({ day: 3, time: '07:15', type: 'R' });
    },
    changed: (v) => v.plannings.some((p: View) => p.day === 3 && p.time === '07:15' && p.type === 'R'),
    invalid: { plannings: [{ day: 3, time: '25:00', type: 'R' }] },
    invalidMessage: /Heure attendue au format HH:MM/,
  },
  {
    key: 'terminals',
    kind: 'terminal',
    method: 'PATCH',
    url: '/api/config/terminal',
    view: CONFIG_SECTIONS.terminals.getPath,
    message: 'Les modifications ont été enregistrées avec succès',
    toPayload: (v) => terminalPayloadOf(v.terminals[0]),
    change: (p) => {
      p.terminal.ID_Tablette = 'TAB-TEST';
    },
    changed: (v) => v.terminals[0].ID_Tablette === 'TAB-TEST',
    invalid: { terminalIndex: 'x', terminal: {} },
    invalidMessage: /Impossible de déterminer le terminal à mettre à jour/,
  },
];

async function send(e: Endpoint, cookie: string | null, payload: unknown, ifMatch?: string) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (ifMatch !== undefined) headers['if-match'] = ifMatch;
  return ctx.app.inject({ method: e.method, url: e.url, headers, payload: payload as object });
}

/** A change to another section, made through its own endpoint. */
async function otherSectionSave(e: Endpoint, cookie: string) {
  const other = ENDPOINTS.find((o) => EDIT_SECTION[o.kind] !== EDIT_SECTION[e.kind]) as Endpoint;
  const p = other.toPayload((await getView(cookie, other.view)).data);
  other.change(p);
  const res = await send(other, cookie, p);
  expect(res.statusCode, res.body).toBe(200);
  return other;
}

describe('registry', () => {
  it('every section the registry can save is tested here', () => {
    const saveable = CONFIG_SECTION_KEYS.filter((key) => CONFIG_SECTIONS[key].save !== null);
    expect(ENDPOINTS.map((e) => e.key).sort()).toEqual([...saveable].sort());
  });
});

describe.each(ENDPOINTS)('$method $url', (e) => {
  it("is the registry's save of its section: the spec's path, method and message", () => {
    expect(CONFIG_SECTIONS[e.key].save).toMatchObject({
      path: e.url,
      method: e.method,
      success: e.message,
      edit: e.kind,
    });
  });

  it('401 without a session', async () => {
    const res = await send(e, null, {});
    expect(res.statusCode).toBe(401);
  });

  it('saves the change as the next version, with history and audit', async () => {
    const { id, cookie } = await fresh();
    const before = await getView(cookie, e.view);
    expect(before.version).toBe(1);
    expect(before.etag).toMatch(/^"1-[\w-]+"$/);
    expect(e.changed(before.data)).toBe(false);
    const p = e.toPayload(before.data);
    e.change(p);
    const res = await send(e, cookie, p, '"1"');
    expect(res.statusCode, res.body).toBe(200);
    expect(ZSaveResponse.parse(res.json())).toEqual({ message: e.message, version: 2 });
    const after = await getView(cookie, e.view);
    expect(after.version).toBe(2);
    expect(after.etag).toMatch(/^"2-[\w-]+"$/);
    expect(e.changed(after.data)).toBe(true);
    const versions = await ctx.db.query<{ version: number; author: string; section: string | null }>(
      'SELECT version, author, section FROM configuration_versions WHERE installation_id = $1 ORDER BY version',
      [id],
    );
    expect(versions).toEqual([
      { version: 1, author: 'admin', section: null },
      { version: 2, author: 'user', section: e.kind },
    ]);
    const audit = await ctx.db.query<{ actor: string; address: string; details: Record<string, unknown> }>(
      `SELECT actor, address, details FROM audit_log WHERE installation_id = $1 AND action = 'config.save'`,
      [id],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toBe('user');
    expect(audit[0]?.address).toBeTruthy();
    expect(audit[0]?.details.section).toBe(e.kind);
    const details = JSON.stringify(audit[0]?.details);
    for (const value of [
      'SRV-TEST',
      'Import',
      'Microsoft',
      'Google',
      '4321',
      'ZZTEST',
      'test@',
      '07:15',
      'TAB-TEST',
    ])
      expect(details).not.toContain(value);
  });

  it('400 in French on an invalid payload, nothing changed', async () => {
    const { id, cookie } = await fresh();
    const res = await send(e, cookie, e.invalid);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(e.invalidMessage);
    expect(await stored(id)).toEqual({ text: FIXTURE_CONFIG, version: 1 });
  });

  it('409 when the same section changed since the version the client edited', async () => {
    const { id, cookie } = await fresh();
    const view = await getView(cookie, e.view);
    const first = e.toPayload(view.data);
    e.change(first);
    expect((await send(e, cookie, first, view.etag)).statusCode).toBe(200);
    const newest = await stored(id);
    // A second tab edits version 1 again, differently.
    const second = e.toPayload(view.data);
    const res = await send(e, cookie, second, view.etag);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ message: CONFLICT_MESSAGE, code: 'conflict' });
    expect(await stored(id)).toEqual(newest);
  });

  it('applies a stale If-Match when only another section changed', async () => {
    const { cookie } = await fresh();
    const view = await getView(cookie, e.view);
    const other = await otherSectionSave(e, cookie);
    const p = e.toPayload(view.data);
    e.change(p);
    const res = await send(e, cookie, p, view.etag);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ version: number }>().version).toBe(3);
    expect(e.changed((await getView(cookie, e.view)).data)).toBe(true);
    expect(other.changed((await getView(cookie, other.view)).data)).toBe(true);
  });

  it('without If-Match, changes only its section of the newest version', async () => {
    const { id, cookie } = await fresh();
    const view = await getView(cookie, e.view);
    await otherSectionSave(e, cookie);
    const newest = (await stored(id)).text;
    const p = e.toPayload(view.data);
    e.change(p);
    const res = await send(e, cookie, p);
    expect(res.statusCode, res.body).toBe(200);
    const after = (await stored(id)).text;
    expect(after).not.toBe(newest);
    const name = EDIT_SECTION[e.kind];
    const outside = (text: string) => text.replace(sectionOf(text, name) ?? '', '');
    expect(outside(after)).toBe(outside(newest));
  });
});

describe('views', () => {
  it('every view answers its contract schema', async () => {
    const { cookie } = await fresh();
    for (const key of CONFIG_SECTION_KEYS) {
      const { getPath, response } = CONFIG_SECTIONS[key];
      const res = await ctx.app.inject({ url: getPath, headers: { cookie } });
      const parsed = response.safeParse(res.json());
      expect(parsed.success, `${getPath}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
    }
  });

  it('a stale If-Match is applied when only connector-owned nodes of the section changed', async () => {
    const { id, cookie } = await fresh();
    const e = ENDPOINTS[0] as Endpoint;
    const view = await getView(cookie, e.view);
    // The connector writes a source status (version 2): not part of what the console edits.
    const current = await stored(id);
    const m = /<Status>([^<]*)<\/Status>/.exec(current.text);
    expect(m).not.toBeNull();
    const connectorText = current.text.replace(
      /<Status>[^<]*<\/Status>/,
      `<Status>${m?.[1] === '1' ? '0' : '1'}</Status>`,
    );
    await ctx.db.query('UPDATE configurations SET text = $2, version = 2 WHERE installation_id = $1', [
      id,
      connectorText,
    ]);
    await ctx.db.query(
      `INSERT INTO configuration_versions (installation_id, version, text, author, section) VALUES ($1, 2, $2, 'connector', 'Sources')`,
      [id, connectorText],
    );
    const p = e.toPayload(view.data);
    e.change(p);
    const res = await send(e, cookie, p, view.etag);
    expect(res.statusCode, res.body).toBe(200);
    const after = (await stored(id)).text;
    expect(after).toContain(/<Status>[^<]*<\/Status>/.exec(connectorText)?.[0]);
    expect(e.changed((await getView(cookie, e.view)).data)).toBe(true);
  });

  it.each(CONFIG_SECTION_KEYS.map((key) => CONFIG_SECTIONS[key].getPath))(
    'GET %s: 401 without session, else {version, data} and ETag',
    async (path) => {
      expect((await ctx.app.inject({ url: path })).statusCode).toBe(401);
      const { cookie } = await fresh();
      const v = await getView(cookie, path);
      expect(v.version).toBe(1);
      expect(v.etag).toMatch(/^"1-[\w-]+"$/);
      expect(v.data).toBeTypeOf('object');
    },
  );

  it('an unreadable stored document: 422 pointing to the Diagnostic screen, for views and saves', async () => {
    const { id, cookie } = await fresh('<Connexion><Info>');
    const view = await ctx.app.inject({ url: CONFIG_SECTIONS.sources.getPath, headers: { cookie } });
    expect(view.statusCode).toBe(422);
    expect(view.json<{ message: string }>().message).toMatch(/Diagnostic/);
    const save = await send(ENDPOINTS[0] as Endpoint, cookie, { sources: [] });
    expect(save.statusCode).toBe(422);
    expect(save.json<{ message: string }>().message).toMatch(/Diagnostic/);
    expect((await stored(id)).version).toBe(1);
  });
});

describe('secrets', () => {
  it('the placeholder keeps the stored passwords; no answer or log carries them', async () => {
    logs = '';
    const { id, cookie } = await fresh();
    const secrets = [...FIXTURE_CONFIG.matchAll(/<MDP>([^<]+)<\/MDP>/g)].map((m) => m[1] as string);
    expect(secrets.length).toBeGreaterThan(1);
    const bodies: string[] = [];
    for (const e of ENDPOINTS.slice(0, 2)) {
      const res = await ctx.app.inject({ url: e.view, headers: { cookie } });
      bodies.push(res.body);
      expect(res.body).toContain(SECRET_PLACEHOLDER);
      const p = e.toPayload(res.json<{ data: View }>().data);
      e.change(p);
      const saved = await send(e, cookie, p, String(res.headers.etag));
      expect(saved.statusCode, saved.body).toBe(200);
      bodies.push(saved.body);
    }
    const text = (await stored(id)).text;
    for (const s of secrets) expect(text).toContain(`<MDP>${s}</MDP>`);
    // A new password is stored, and appears in no answer, log or audit row.
    const e = ENDPOINTS[0] as Endpoint;
    const v = await getView(cookie, e.view);
    const p = e.toPayload(v.data);
    p.sources[0].MDP = 'Nouveau-Secret-4217';
    const res = await send(e, cookie, p, v.etag);
    expect(res.statusCode).toBe(200);
    bodies.push(res.body, (await ctx.app.inject({ url: e.view, headers: { cookie } })).body);
    expect((await stored(id)).text).toContain('<MDP>Nouveau-Secret-4217</MDP>');
    const audit = await ctx.db.query('SELECT details FROM audit_log WHERE installation_id = $1', [id]);
    expect(JSON.stringify(audit)).not.toContain('Nouveau-Secret');
    expect(logs).not.toContain('Nouveau-Secret');
    for (const b of bodies) expect(b).not.toContain('Nouveau-Secret');
    const user = await ctx.app.inject({ url: '/api/user', headers: { cookie } });
    bodies.push(user.body);
    for (const s of secrets.filter((x) => x.length > 3)) {
      for (const b of bodies) expect(b).not.toContain(s);
      expect(logs).not.toContain(s);
    }
  });
});

describe('a stored secret does not follow a change of destination', () => {
  const SOURCE_FIELDS: [string, string, string][] = [
    ['Provider', 'Provider', 'MSDASQL'],
    ['Serveur', 'Serveur', 'attaquant.example:1433'],
    ['Nom_BDD', 'Base de données', 'AUTRE'],
    ['Utilisateur', 'Utilisateur', 'intrus'],
  ];
  const LINK_FIELDS: [string, string, string][] = [
    ['Logiciel', 'Logiciel maître', 'C:\\Temp\\espion.exe'],
    ['Config', 'Configuration maître', '\\\\hote\\partage\\x.ebp'],
    ['Utilisateur', 'Utilisateur logiciel', 'intrus'],
  ];
  const cases = [
    ...SOURCE_FIELDS.map(([field, label, value]) => ({
      e: ENDPOINTS[0] as Endpoint,
      rows: 'sources',
      row: 'Connexion 1',
      field,
      label,
      value,
    })),
    ...LINK_FIELDS.map(([field, label, value]) => ({
      e: ENDPOINTS[1] as Endpoint,
      rows: 'Liaisons',
      row: 'Logiciel maître 1',
      field,
      label,
      value,
    })),
  ];

  it.each(cases)(
    '$rows: $field changed with the placeholder: 400 naming the row and field, nothing written',
    async (c) => {
      const { id, cookie } = await fresh();
      const before = await stored(id);
      const audits = await ctx.db.query('SELECT 1 FROM audit_log WHERE installation_id = $1', [id]);
      const v = await getView(cookie, c.e.view);
      const p = c.e.toPayload(v.data);
      expect(p[c.rows][0].MDP).toBe(SECRET_PLACEHOLDER);
      p[c.rows][0][c.field] = c.value;
      const res = await send(c.e, cookie, p, v.etag);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json<{ message: string; code: string }>();
      expect(body.code).toBe('secret-destination');
      expect(body.message).toBe(
        `${c.row}\u00a0: ${c.label} a changé, saisissez à nouveau le mot de passe. ` +
          "Un mot de passe enregistré n'est jamais envoyé vers une autre destination. Rien n'a été enregistré.",
      );
      expect(await stored(id)).toEqual(before);
      expect(await ctx.db.query('SELECT 1 FROM audit_log WHERE installation_id = $1', [id])).toHaveLength(
        audits.length,
      );
    },
  );

  it('names every moved row and field in one answer', async () => {
    const { id, cookie } = await fresh(
      FIXTURE_CONFIG.replace(
        /(<Source>[\s\S]*?<\/Source>[\s\S]*?<Source>[\s\S]*?)<MDP\/>/,
        '$1<MDP>Deux-2</MDP>',
      ),
    );
    const e = ENDPOINTS[0] as Endpoint;
    const v = await getView(cookie, e.view);
    expect(v.data.sources[1].MDP).toBe(SECRET_PLACEHOLDER);
    const p = e.toPayload(v.data);
    p.sources[0].Serveur = 'ailleurs';
    p.sources[0].Nom_BDD = 'AUTRE';
    p.sources[1].Provider = 'MSDASQL';
    const res = await send(e, cookie, p, v.etag);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(
      /^Connexion 1\u00a0: Serveur et Base de données ont changé, saisissez à nouveau le mot de passe\. Connexion 2\u00a0: Provider a changé, saisissez/,
    );
    expect((await stored(id)).version).toBe(1);
  });

  it.each(cases)('$rows: $field changed with the password typed again (or cleared) is saved', async (c) => {
    const { id, cookie } = await fresh();
    const v = await getView(cookie, c.e.view);
    const p = c.e.toPayload(v.data);
    p[c.rows][0][c.field] = c.value;
    p[c.rows][0].MDP = 'Retape-9981';
    const res = await send(c.e, cookie, p, v.etag);
    expect(res.statusCode, res.body).toBe(200);
    expect((await getView(cookie, c.e.view)).data[c.rows][0][c.field]).toBe(c.value);
    expect((await stored(id)).text).toContain('<MDP>Retape-9981</MDP>');
    p[c.rows][0][c.field] = `${c.value}2`;
    p[c.rows][0].MDP = '';
    const cleared = await send(c.e, cookie, p);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await stored(id)).text).not.toContain('Retape-9981');
  });

  it('other fields change with the placeholder, and the stored password stays', async () => {
    const { id, cookie } = await fresh();
    const e = ENDPOINTS[0] as Endpoint;
    const v = await getView(cookie, e.view);
    const p = e.toPayload(v.data);
    p.sources[0].Lecture_Seule = !p.sources[0].Lecture_Seule;
    p.sources[1].Serveur = 'sans-mot-de-passe';
    const res = await send(e, cookie, p, v.etag);
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(id)).text).toContain('<MDP>Demo-75e469</MDP>');
    expect((await stored(id)).version).toBe(2);
  });
});

describe('concurrency, history and cache', () => {
  it('two concurrent saves of different sections both land', async () => {
    const { id, cookie } = await fresh();
    const [a, b] = [ENDPOINTS[0], ENDPOINTS[5]] as [Endpoint, Endpoint];
    const pa = a.toPayload((await getView(cookie, a.view)).data);
    const pb = b.toPayload((await getView(cookie, b.view)).data);
    a.change(pa);
    b.change(pb);
    const results = await Promise.all([send(a, cookie, pa, '"1"'), send(b, cookie, pb, '"1"')]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(results.map((r) => r.json<{ version: number }>().version).sort()).toEqual([2, 3]);
    expect(a.changed((await getView(cookie, a.view)).data)).toBe(true);
    expect(b.changed((await getView(cookie, b.view)).data)).toBe(true);
    expect((await stored(id)).version).toBe(3);
  });

  it('two concurrent saves without If-Match both land too', async () => {
    const { cookie } = await fresh();
    const [a, b] = [ENDPOINTS[3], ENDPOINTS[6]] as [Endpoint, Endpoint];
    const pa = a.toPayload((await getView(cookie, a.view)).data);
    const pb = b.toPayload((await getView(cookie, b.view)).data);
    a.change(pa);
    b.change(pb);
    const results = await Promise.all([send(a, cookie, pa), send(b, cookie, pb)]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(a.changed((await getView(cookie, a.view)).data)).toBe(true);
    expect(b.changed((await getView(cookie, b.view)).data)).toBe(true);
  });

  it('backfills the version being replaced when history lacks it', async () => {
    const { id, cookie } = await fresh();
    await ctx.db.query('DELETE FROM configuration_versions WHERE installation_id = $1', [id]);
    const e = ENDPOINTS[0] as Endpoint;
    const p = e.toPayload((await getView(cookie, e.view)).data);
    e.change(p);
    expect((await send(e, cookie, p)).statusCode).toBe(200);
    const rows = await ctx.db.query<{ version: number; text: string }>(
      'SELECT version, text FROM configuration_versions WHERE installation_id = $1 ORDER BY version',
      [id],
    );
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
    expect(rows[0]?.text).toBe(FIXTURE_CONFIG);
  });

  it('saving the view back unchanged writes no version', async () => {
    const { id, cookie } = await fresh();
    const e = ENDPOINTS[0] as Endpoint;
    const res = await send(e, cookie, e.toPayload((await getView(cookie, e.view)).data), '"1"');
    expect(res.json()).toEqual({ message: e.message, version: 1 });
    expect(await stored(id)).toEqual({ text: FIXTURE_CONFIG, version: 1 });
  });

  it('/api/user and /api/dashboard show the new version right after a save', async () => {
    const { cookie } = await fresh();
    const user1 = await ctx.app.inject({ url: '/api/user', headers: { cookie } });
    expect(user1.json<{ configVersion: number }>().configVersion).toBe(1);
    await ctx.app.inject({ url: '/api/dashboard', headers: { cookie } });
    const e = ENDPOINTS[0] as Endpoint;
    const p = e.toPayload((await getView(cookie, e.view)).data);
    e.change(p);
    expect((await send(e, cookie, p)).statusCode).toBe(200);
    const user2 = await ctx.app.inject({ url: '/api/user', headers: { cookie } });
    const body = user2.json<{ configVersion: number; ConfigConnecteur: string }>();
    expect(body.configVersion).toBe(2);
    expect(body.ConfigConnecteur).toContain('SRV-TEST-1');
    const dash = await ctx.app.inject({ url: '/api/dashboard', headers: { cookie } });
    expect(dash.statusCode).toBe(200);
  });

  it('If-Match of a version that never existed is a conflict; a malformed one is 400', async () => {
    const { cookie } = await fresh();
    const e = ENDPOINTS[0] as Endpoint;
    const p = e.toPayload((await getView(cookie, e.view)).data);
    e.change(p);
    expect((await send(e, cookie, p, '"99"')).statusCode).toBe(409);
    expect((await send(e, cookie, p, 'abc')).statusCode).toBe(400);
  });
});

describe('data to sync: a history cleared to 0 is still offered', () => {
  const syncData = ENDPOINTS.find((e) => e.key === 'syncData') as Endpoint;
  const affaire = (data: View) => (data.syncData as View[]).find((d) => d.Reference === 'AFFAIRE');

  it('the fixture has no ElementsSync: AFFAIRE saved with no history keeps its field, in this installation only', async () => {
    const { cookie } = await fresh();
    const other = await fresh();
    const before = await getView(cookie, syncData.view);
    expect(affaire(before.data)).toMatchObject({ Histo: 9000, CanHaveHistory: true });
    const p = syncData.toPayload(before.data);
    affaire(p).Histo = 0;
    expect((await send(syncData, cookie, p, `"${before.version}"`)).statusCode).toBe(200);

    const after = await getView(cookie, syncData.view);
    expect(after.version).toBe(before.version + 1);
    expect(affaire(after.data)).toMatchObject({ Histo: 0, CanHaveHistory: true });
    // Set again, then cleared again: still offered.
    affaire(p).Histo = 30;
    expect((await send(syncData, cookie, p)).statusCode).toBe(200);
    expect(affaire((await getView(cookie, syncData.view)).data)).toMatchObject({
      Histo: 30,
      CanHaveHistory: true,
    });

    // An item that never had a history is not offered one; another installation keeps its own.
    const articles = (await getView(cookie, syncData.view)).data.syncData.find(
      (d: View) => d.Reference === 'ARTICLE',
    );
    expect(articles).toMatchObject({ Histo: 0, CanHaveHistory: false });
    const otherView = await getView(other.cookie, syncData.view);
    const q = syncData.toPayload(otherView.data);
    (q.syncData as View[]).find((d) => d.Reference === 'CHANTIER').Histo = 0;
    expect((await send(syncData, other.cookie, q)).statusCode).toBe(200);
    const chantier = (await getView(other.cookie, syncData.view)).data.syncData.find(
      (d: View) => d.Reference === 'CHANTIER',
    );
    expect(chantier).toMatchObject({ Histo: 0, CanHaveHistory: true });
    expect(affaire((await getView(other.cookie, syncData.view)).data)).toMatchObject({ Histo: 9000 });
    const refs = await ctx.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM sync_data_history_refs WHERE installation_id = $1 AND reference = $2',
      [other.id, 'AFFAIRE'],
    );
    expect(refs[0]?.n).toBe('1');
  });
});

describe('plannings', () => {
  it('GET /api/plannings: 401, then the legacy list {Jour, Heure, Ordre}', async () => {
    expect((await ctx.app.inject({ url: '/api/plannings' })).statusCode).toBe(401);
    const { cookie } = await fresh();
    const empty = await ctx.app.inject({ url: '/api/plannings', headers: { cookie } });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]); // the fixture has no schedule
    const plannings = [
      { day: 3, time: '07:15', type: 'R' },
      { day: 8, time: '22:45', type: 'C' },
    ];
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/plannings',
      headers: { cookie },
      payload: { plannings },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const view = await getView(cookie, CONFIG_SECTIONS.planifications.getPath);
    expect(view.data.plannings).toEqual(plannings);
    const res = await ctx.app.inject({ url: '/api/plannings', headers: { cookie } });
    // Jour as text, as the earlier server gave it.
    expect(ZPlanningsList.parse(res.json())).toEqual([
      { Jour: '3', Heure: '07:15', Ordre: 'R' },
      { Jour: '8', Heure: '22:45', Ordre: 'C' },
    ]);
  });

  it('POST /api/plannings stores the time zone in the document and on the installation', async () => {
    const { syncId, cookie } = await fresh();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/plannings',
      headers: { cookie },
      payload: {
        plannings: [{ day: 8, time: '06:00', type: 'C' }],
        xmlInfo: { exe: 'x', serial: 'y' },
        timeZone: { value: 'GMT-5', label: 'America/New_York' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = await getView(cookie, CONFIG_SECTIONS.planifications.getPath);
    expect(view.data).toEqual({
      timeZone: 'America/New_York',
      timeZoneOffset: '-05:00',
      plannings: [{ day: 8, time: '06:00', type: 'C' }],
      // Info/Exe and Info/Serial, decoded from the connector's text convention.
      xmlInfo: {
        exe: 'C:\\Mes Projets\\Synchro NuxiDev\\Exe\\Exécutable Windows 64 bits\\Synchro NuxiDev.exe',
        serial: 'DEMO-EB15-AB22-A1BA-5B66',
      },
    });
    const inst = await findInstallationBySyncId(ctx.db, syncId);
    expect(inst?.timeZone).toBe('America/New_York');
    expect(inst?.timeZoneLabel).toBe('America/New_York');
    const list = await ctx.app.inject({ url: '/api/plannings', headers: { cookie } });
    expect(list.json()).toEqual([{ Jour: '8', Heure: '06:00', Ordre: 'C' }]);
  });

  it('a failed schedule save carries the error field the legacy screen reads', async () => {
    const { cookie } = await fresh();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/plannings',
      headers: { cookie },
      payload: { plannings: [], timeZone: { value: 'nope', label: 'X' } },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; error: string }>();
    expect(body.error).toBe(body.message);
    expect(body.message).toMatch(/Décalage horaire attendu/);
  });
});

describe('terminal', () => {
  it('a stale If-Match on one terminal is applied when only another terminal changed', async () => {
    const { cookie } = await fresh();
    const e = ENDPOINTS[7] as Endpoint;
    const view = await getView(cookie, e.view);
    const other = e.toPayload(view.data);
    const t1 = view.data.terminals[1];
    other.terminalIndex = t1.xmlIndex;
    other.terminal = {
      ...other.terminal,
      Nom: t1.Nom,
      ID_Tablette: 'TAB-OTHER',
      ID_Smartphone: t1.ID_Smartphone,
    };
    other.terminal.technicienId = t1.technicienId;
    other.terminal.depotId = t1.depotId;
    other.terminal.commerciaux = t1.commerciaux;
    other.terminal.authorizations = t1.authorizations;
    expect((await send(e, cookie, other, view.etag)).statusCode).toBe(200);
    const p = e.toPayload(view.data);
    e.change(p);
    const res = await send(e, cookie, p, view.etag);
    expect(res.statusCode, res.body).toBe(200);
    const after = (await getView(cookie, e.view)).data;
    expect(after.terminals[0].ID_Tablette).toBe('TAB-TEST');
    expect(after.terminals[1].ID_Tablette).toBe('TAB-OTHER');
    // The same terminal edited from the stale version: conflict.
    expect((await send(e, cookie, other, view.etag)).statusCode).toBe(409);
  });

  it('an unknown terminal index: 400, nothing changed', async () => {
    const { id, cookie } = await fresh();
    const e = ENDPOINTS[7] as Endpoint;
    const p = e.toPayload((await getView(cookie, e.view)).data);
    p.terminalIndex = 999;
    const res = await send(e, cookie, p);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'Impossible de déterminer le terminal à mettre à jour',
    );
    expect((await stored(id)).version).toBe(1);
  });
});

describe("what the earlier console's client sends", () => {
  const post = (cookie: string, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });

  it('exclusions: ART, CLI, FOU without labels are saved as the three family types, labelled from the Data lists', async () => {
    const { cookie } = await fresh();
    const res = await post(cookie, CONFIG_SECTIONS.exclusions.save.path, {
      exclusions: [
        { id: 'ANIM0001|', type: 'ART' },
        { id: 'CE0001|SFCL00002', type: 'CLI' },
        { id: 'GROSSI|', type: 'FOU' },
        { id: 'PUZZ0001|SFAR00001', type: 'ART' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await getView(cookie, CONFIG_SECTIONS.exclusions.getPath)).data.exclusions).toEqual([
      { id: 'ANIM0001|', libelle: 'ANIMATIONS', type: 'ItemFamily' },
      { id: 'PUZZ0001|SFAR00001', libelle: 'PUZZLES\tPuzzle + 900 pièces', type: 'ItemFamily' },
      {
        id: 'CE0001|SFCL00002',
        libelle: "Comités d'entreprise\tEntreprises Etrangères",
        type: 'CustomerFamily',
      },
      { id: 'GROSSI|', libelle: 'Grossiste', type: 'SupplierFamily' },
    ]);
  });

  it('agendas: "empty" is no agenda type and a free row, never written', async () => {
    const { id, cookie } = await fresh();
    const res = await post(cookie, CONFIG_SECTIONS.externalCalendars.save.path, {
      agendaType: 'empty',
      mappings: [
        { ID_Salarie: 'CO00002', ID_Agenda: 'agenda@exemple.fr' },
        { ID_Salarie: 'empty', ID_Agenda: 'empty' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = (await getView(cookie, CONFIG_SECTIONS.externalCalendars.getPath)).data;
    expect(view.agendaType).toBe('');
    expect(view.mappings.slice(0, 2)).toEqual([
      { ID_Salarie: 'CO00002', ID_Agenda: 'agenda@exemple.fr' },
      { ID_Salarie: '-1', ID_Agenda: '-1' },
    ]);
    expect((await stored(id)).text).not.toContain('>empty<');
  });
});
