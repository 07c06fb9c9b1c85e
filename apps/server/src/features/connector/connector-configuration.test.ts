import { CONFIG_SECTIONS, SECRET_PLACEHOLDER } from '@synchro/contracts';
import { parseConfig, readInfo, readLastSync, readSources, sectionOf } from '@synchro/config-xml';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CONFIG, signIn, useTestApp } from '../../../test/helpers/app.ts';
import { watchedOffload } from '../../../test/helpers/offload.ts';
import { DEFAULT_VERSION_RETENTION } from '../../config/env.ts';
import { MINIMAL_CONFIGURATION } from '../../domain/configurations.ts';
import { findInstallationBySyncId } from '../../domain/installations.ts';
import { OFFLOAD_MIN_BYTES, sharedOffloadPool, type Offload } from '../../offload/pool.ts';
import { writeConnectorParts } from './configuration.ts';
import {
  connectorCall,
  connectorInstallation,
  expectConnectorError,
} from '../../../test/helpers/connector.ts';

/** GET and PATCH /api/connector/v1/configuration. */

const ctx = useTestApp();

async function stored(id: string) {
  const [row] = await ctx.db.query<{ text: string; version: number }>(
    'SELECT text, version FROM configurations WHERE installation_id = $1',
    [id],
  );
  if (!row) throw new Error('no configuration');
  return row;
}

const FIXTURE_DATA = sectionOf(FIXTURE_CONFIG, 'Data') ?? '';

describe('GET /configuration', () => {
  it('the stored text byte for byte, secrets included, as XML with the version as ETag', async () => {
    const a = await connectorInstallation(ctx.db, 'CGET1');
    const res = await connectorCall(ctx.app, 'GET', '/configuration', a.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers.etag).toBe('"1"');
    expect(res.rawPayload.equals(Buffer.from(FIXTURE_CONFIG, 'utf8'))).toBe(true);
    expect(res.body).toContain('<MDP>Demo-75e469</MDP>');
    expect(res.body).not.toContain(SECRET_PLACEHOLDER);
  });

  it('a BOM and every byte of a text written by the connector come back as stored', async () => {
    const text = `\uFEFF${FIXTURE_CONFIG.replace('<Connexion>', '<Connexion><!-- écrit par le connecteur -->')}`;
    const a = await connectorInstallation(ctx.db, 'CGET2', { configText: text });
    const res = await connectorCall(ctx.app, 'GET', '/configuration', a.token);
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(res.rawPayload.equals(Buffer.from(text, 'utf8'))).toBe(true);
    // A connector write keeps it (the newest text is read with it).
    await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, { DerSynchro: { NbEnreg: '5' } });
    const after = await connectorCall(ctx.app, 'GET', '/configuration', a.token);
    expect(after.headers.etag).toBe('"2"');
    expect(after.body.startsWith('\uFEFF<?xml')).toBe(true);
    expect(after.body).toBe(text.replace(/<NbEnreg>[^<]*<\/NbEnreg>/, '<NbEnreg>5</NbEnreg>'));
  });

  it('If-None-Match of the current version: 304 without a body; another version: the text', async () => {
    const a = await connectorInstallation(ctx.db, 'CGET3');
    for (const header of ['"1"', 'W/"1"', '"7", "1"', '*']) {
      const res = await connectorCall(ctx.app, 'GET', '/configuration', a.token, undefined, {
        'if-none-match': header,
      });
      expect(res.statusCode, header).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe('"1"');
    }
    for (const header of ['"2"', '"0"', 'garbage', '1']) {
      const res = await connectorCall(ctx.app, 'GET', '/configuration', a.token, undefined, {
        'if-none-match': header,
      });
      expect(res.statusCode, header).toBe(200);
      expect(res.body).toBe(FIXTURE_CONFIG);
    }
    // After a write, the old version is no longer current.
    await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, {
      Info: { VersionConnecteur: '9.9.9' },
    });
    const res = await connectorCall(ctx.app, 'GET', '/configuration', a.token, undefined, {
      'if-none-match': '"1"',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.body).toContain('<VersionConnecteur>9.9.9</VersionConnecteur>');
  });
});

describe('PATCH /configuration', () => {
  it('writes Info, DerSynchro, source statuses and Data as the next version (author connector), audited without values', async () => {
    const a = await connectorInstallation(ctx.db, 'CPAT1');
    const data = FIXTURE_DATA.replace('<Data>', '<Data>\r\n    <Nouveau>LÃ©a</Nouveau>');
    const res = await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, {
      Info: {
        VersionConnecteur: '6.19.4',
        NuxiAutomateInstall: '1',
        NuxiAutomateLibelle: 'Version : 6.11.23.9',
      },
      DerSynchro: {
        DateHeure: '20251114080952542',
        TypeDeSync: 'ComplÃ¨te',
        NbEnreg: 1838,
        Taille: '3,721 Mo',
      },
      Sources: [{ index: 2, Status: '0', StatusLibelle: 'Cnx 2 KO : délai dépassé' }],
      Data: data,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ version: 2 });
    const { text: raw, version } = await stored(a.id);
    expect(version).toBe(2);
    const text = parseConfig(raw);
    expect(readInfo(text)).toMatchObject({ connectorVersion: '6.19.4', automateInstall: 1 });
    expect(readLastSync(text)).toMatchObject({
      dateHeure: '20251114080952542',
      type: 'Complète',
      records: 1838,
    });
    expect(readSources(text).sources[1]).toMatchObject({
      Status: 0,
      StatusLibelle: 'Cnx 2 KO : délai dépassé',
    });
    expect(sectionOf(raw, 'Data')).toBe(data);
    // Everything else is byte for byte the stored text.
    for (const section of [
      'Complement',
      'Liaisons_Externes',
      'Planifications',
      'Terminaux',
      'Exclusions',
    ] as const)
      expect(sectionOf(raw, section)).toBe(sectionOf(FIXTURE_CONFIG, section));

    const [history] = await ctx.db.query<{ author: string; section: string }>(
      'SELECT author, section FROM configuration_versions WHERE installation_id = $1 AND version = 2',
      [a.id],
    );
    expect(history).toEqual({ author: 'connector', section: 'connector' });
    const audit = await ctx.db.query<{ actor: string; details: Record<string, unknown> }>(
      `SELECT actor, details FROM audit_log WHERE installation_id = $1 AND action = 'config.connector-write'`,
      [a.id],
    );
    expect(audit).toEqual([
      {
        actor: 'connector',
        details: { parts: ['Info', 'DerSynchro', 'Sources', 'Data'], fromVersion: 1, version: 2 },
      },
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/6\.19\.4|1838|Nouveau/);
  });

  it('a patch that changes nothing writes no version; the same patch twice is the same as once', async () => {
    const a = await connectorInstallation(ctx.db, 'CPAT2');
    const patch = { DerSynchro: { NbEnreg: '12' } };
    expect((await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, patch)).json()).toEqual({
      version: 2,
    });
    expect((await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, patch)).json()).toEqual({
      version: 2,
    });
    expect((await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, {})).json()).toEqual({
      version: 2,
    });
    const [row] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM configuration_versions WHERE installation_id = $1',
      [a.id],
    );
    expect(row?.n).toBe(2);
  });

  it('400 naming the field, nothing written', async () => {
    const a = await connectorInstallation(ctx.db, 'CPAT3');
    const cases: [unknown, string][] = [
      [
        { DerSynchro: { NbEnreg: { n: 1 } } },
        'Requête invalide\u00a0: DerSynchro.NbEnreg\u00a0: texte attendu',
      ],
      [
        {
          Sources: [
            { index: 1, Status: '1' },
            { index: 9, Status: '1' },
          ],
        },
        'Requête invalide\u00a0: Sources[1].index\u00a0: la source 9 n’existe pas (la configuration en compte 4).',
      ],
      [
        { Info: { '1abc': 'x' } },
        'Requête invalide\u00a0: Info.1abc\u00a0: nom d’élément invalide sous Info',
      ],
      [{ Data: '<Autre/>' }, 'Requête invalide\u00a0: Data\u00a0:'],
      [{ Data: '<Data><Salarie></Data>' }, 'Requête invalide\u00a0: Data\u00a0:'],
      [{ Data: '<!DOCTYPE x [<!ENTITY a "b">]><Data>&a;</Data>' }, 'Requête invalide\u00a0: Data\u00a0:'],
    ];
    for (const [body, message] of cases) {
      const res = await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, body);
      expect(expectConnectorError(res, 400, 'invalid-request').startsWith(message), res.body).toBe(true);
    }
    expect(await stored(a.id)).toEqual({ text: FIXTURE_CONFIG, version: 1 });
  });

  it('an unreadable stored document: 422 for the write (the administrator repairs it), the text still readable', async () => {
    const a = await connectorInstallation(ctx.db, 'CPAT4');
    const broken = FIXTURE_CONFIG.replace('</Info>', '');
    await ctx.db.query('UPDATE configurations SET text = $2, version = 2 WHERE installation_id = $1', [
      a.id,
      broken,
    ]);
    const res = await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, {
      Info: { VersionConnecteur: '1' },
    });
    expect(expectConnectorError(res, 422, 'unreadable-configuration')).toContain('Diagnostic');
    expect((await connectorCall(ctx.app, 'GET', '/configuration', a.token)).body).toBe(broken);
    expect((await stored(a.id)).text).toBe(broken);
  });
});

// ---------------------------------------------------------------------------------------------
// The race: one connector PATCH stream against 20 concurrent console saves covering every section.

/* eslint-disable @typescript-eslint/no-explicit-any -- console views are handled as JSON */
type View = any;

interface ConsoleSave {
  name: string;
  view: string;
  method: 'POST' | 'PATCH';
  url: string;
  payload: (v: View) => View;
  landed: (v: View) => boolean;
}

const section = (key: keyof typeof CONFIG_SECTIONS) => {
  const s = CONFIG_SECTIONS[key];
  if (!s.save) throw new Error(`${key} has no save`);
  return { view: s.getPath, method: s.save.method as 'POST' | 'PATCH', url: s.save.path };
};

const SECTION_SAVES: ConsoleSave[] = [
  {
    name: 'sources',
    ...section('sources'),
    payload: (v) => ({
      // Source 2: it holds no password (moving source 1 would need its password typed again).
      sources: v.sources.map((s: View, i: number) => (i === 1 ? { ...s, Serveur: 'SRV-COURSE' } : s)),
    }),
    landed: (v) => v.sources[1].Serveur === 'SRV-COURSE',
  },
  {
    name: 'externalLinks',
    ...section('externalLinks'),
    payload: (v) => ({
      Dossier_Import: 'C:\\Course é',
      Dossier_Export: v.Dossier_Export,
      Liaisons: v.Liaisons,
    }),
    landed: (v) => v.Dossier_Import === 'C:\\Course é',
  },
  {
    name: 'externalCalendars',
    ...section('externalCalendars'),
    payload: () => ({ agendaType: 'Google', mappings: [{ ID_Salarie: '-1', ID_Agenda: 'agenda-course' }] }),
    landed: (v) => v.agendaType === 'Google' && v.mappings.some((m: View) => m.ID_Agenda === 'agenda-course'),
  },
  {
    name: 'syncData',
    ...section('syncData'),
    payload: (v) => ({
      syncData: v.syncData.map((d: View, i: number) => (i === 0 ? { ...d, Histo: 4321 } : d)),
    }),
    landed: (v) => v.syncData[0].Histo === 4321,
  },
  {
    name: 'exclusions',
    ...section('exclusions'),
    payload: (v) => ({
      exclusions: [...v.exclusions, { id: 'ZZCOURSE|', libelle: 'Famille course', type: 'ItemFamily' }],
    }),
    landed: (v) => v.exclusions.some((e: View) => e.id === 'ZZCOURSE|'),
  },
  {
    name: 'complement',
    ...section('complement'),
    payload: (v) => ({
      googleApiKey: v.googleApiKey,
      driveType: v.driveType,
      mailRapport: { ...v.mailRapport, mailDestinataire: 'course@example.fr' },
      scriptComplementaire: v.scriptComplementaire,
    }),
    landed: (v) => v.mailRapport.mailDestinataire === 'course@example.fr',
  },
  {
    name: 'planifications',
    ...section('planifications'),
    payload: (v) => ({ plannings: [...v.plannings, { day: 3, time: '07:15', type: 'R' }] }),
    landed: (v) => v.plannings.some((p: View) => p.day === 3 && p.time === '07:15' && p.type === 'R'),
  },
];

/** Saves of 13 different terminals: with the 7 sections above, 20 concurrent console saves. */
const TERMINAL_SAVES: ConsoleSave[] = Array.from({ length: 13 }, (_, k) => ({
  name: `terminal ${k}`,
  ...section('terminals'),
  payload: (v) => {
    const t = v.terminals[k];
    return {
      terminalIndex: t.xmlIndex,
      terminal: {
        Nom: t.Nom,
        ID_Tablette: `TAB-COURSE-${k}`,
        ID_Smartphone: t.ID_Smartphone,
        technicienId: t.technicienId,
        depotId: t.depotId,
        commerciaux: t.commerciaux,
        authorizations: t.authorizations,
      },
    };
  },
  landed: (v) => v.terminals[k].ID_Tablette === `TAB-COURSE-${k}`,
}));

const CONSOLE_SAVES = [...SECTION_SAVES, ...TERMINAL_SAVES];

/** The connector's n-th write: every part it owns, Data with a marker of n. */
function connectorPatch(n: number) {
  return {
    Info: { VersionConnecteur: `6.19.${n}`, DateMAJConfig: `2025111409${String(n).padStart(2, '0')}00000` },
    DerSynchro: { NbEnreg: String(1000 + n), TypeDeSync: n % 2 ? 'ComplÃ¨te' : 'IncrÃ©mentale' },
    Sources: [
      { index: 1, Status: String(n % 2), StatusLibelle: `Cnx 1 essai ${n}` },
      { index: 2, Status: '1', StatusLibelle: `Cnx 2 essai ${n}` },
    ],
    ...(n % 3 === 0 ? { Data: FIXTURE_DATA.replace('<Data>', `<Data>\r\n    <Course>${n}</Course>`) } : {}),
  };
}

describe('a connector write and administrators’ saves at the same moment', () => {
  it('one PATCH stream against 20 concurrent console saves of every section: every accepted change is in the final document', async () => {
    const a = await connectorInstallation(ctx.db, 'RACE1');
    const cookie = await signIn(ctx.app, a.syncId);
    // Each administrator read the view of version 1 and saves with If-Match "1".
    const payloads = await Promise.all(
      CONSOLE_SAVES.map(async (s) => {
        const res = await ctx.app.inject({ url: s.view, headers: { cookie } });
        expect(res.statusCode, res.body).toBe(200);
        return s.payload(res.json<{ data: View }>().data);
      }),
    );

    const STREAM = 12;
    let lastData = FIXTURE_DATA;
    const stream = (async () => {
      const versions: number[] = [];
      for (let n = 1; n <= STREAM; n++) {
        const patch = connectorPatch(n);
        const res = await connectorCall(ctx.app, 'PATCH', '/configuration', a.token, patch);
        expect(res.statusCode, res.body).toBe(200);
        versions.push(res.json<{ version: number }>().version);
        if (patch.Data) lastData = patch.Data;
      }
      return versions;
    })();
    const saves = CONSOLE_SAVES.map((s, i) =>
      ctx.app.inject({
        method: s.method,
        url: s.url,
        headers: { cookie, 'if-match': '"1"' },
        payload: payloads[i],
      }),
    );
    const [versions, ...answers] = await Promise.all([stream, ...saves]);

    // Nothing refused: no false conflict between the connector's parts and the console's sections.
    answers.forEach((res, i) => expect(res.statusCode, `${CONSOLE_SAVES[i]?.name}: ${res.body}`).toBe(200));
    expect(new Set(versions).size).toBe(STREAM);
    const final = await stored(a.id);
    expect(final.version).toBe(1 + STREAM + CONSOLE_SAVES.length);
    const doc = parseConfig(final.text);

    // Every console change is there…
    for (const s of CONSOLE_SAVES) {
      const res = await ctx.app.inject({ url: s.view, headers: { cookie } });
      expect(s.landed(res.json<{ data: View }>().data), s.name).toBe(true);
    }
    // …and every node the connector owns holds its last write.
    const last = connectorPatch(STREAM);
    expect(readInfo(doc)).toMatchObject({ connectorVersion: last.Info.VersionConnecteur });
    expect(sectionOf(final.text, 'Info')).toContain(
      `<DateMAJConfig>${last.Info.DateMAJConfig}</DateMAJConfig>`,
    );
    expect(readLastSync(doc)).toMatchObject({ records: 1000 + STREAM, type: 'Incrémentale' });
    const sources = readSources(doc).sources;
    expect(sources[0]).toMatchObject({ Status: STREAM % 2, StatusLibelle: `Cnx 1 essai ${STREAM}` });
    expect(sources[1]).toMatchObject({
      Serveur: 'SRV-COURSE',
      Status: 1,
      StatusLibelle: `Cnx 2 essai ${STREAM}`,
    });
    expect(sectionOf(final.text, 'Data')).toBe(lastData);
    expect(lastData).toContain(`<Course>12</Course>`);
    // The secrets the console never saw are intact.
    expect(final.text).toContain('<MDP>Demo-75e469</MDP>');
    expect(final.text).toContain('<MDP>Demo-9a2289</MDP>');

    // The history holds every version, each by its author.
    const authors = await ctx.db.query<{ author: string; n: number }>(
      `SELECT author, count(*)::int AS n FROM configuration_versions WHERE installation_id = $1 AND version > 1
       GROUP BY author ORDER BY author`,
      [a.id],
    );
    expect(authors).toEqual([
      { author: 'connector', n: STREAM },
      { author: 'user', n: CONSOLE_SAVES.length },
    ]);
  });
});

describe('where a PATCH is checked and edited', () => {
  /** The shared worker pool, telling which tasks it was given. */
  function recordingOffload(): Offload & { tasks: string[] } {
    const tasks: string[] = [];
    return { ...watchedOffload(sharedOffloadPool(), (name) => tasks.push(name)), tasks };
  }

  it('a big Data into a small document is checked in a worker, a small one on the request thread', async () => {
    const a = await connectorInstallation(ctx.db, 'COFF1', { configText: MINIMAL_CONFIGURATION });
    const installation = await findInstallationBySyncId(ctx.db, 'COFF1');
    if (!installation) throw new Error('no installation');
    const write = (offload: Offload, Data: string) =>
      writeConnectorParts(
        ctx.db,
        offload,
        installation,
        { Data },
        '127.0.0.1',
        DEFAULT_VERSION_RETENTION,
        new Date(),
      );

    const small = recordingOffload();
    await write(small, '<Data><CMB_SALARIES/></Data>');
    expect(small.tasks).toEqual([]);

    const big = recordingOffload();
    const rows = '<SALARIES><Nom>Durand</Nom><Prenom>Léa</Prenom><IDInterne>S1</IDInterne></SALARIES>';
    const Data = `<Data><CMB_SALARIES>${rows.repeat(Math.ceil(OFFLOAD_MIN_BYTES / rows.length))}</CMB_SALARIES></Data>`;
    expect((await stored(a.id)).text.length).toBeLessThan(OFFLOAD_MIN_BYTES);
    await write(big, Data);
    expect(big.tasks).toContain('connector.config-edit');
    expect(sectionOf((await stored(a.id)).text, 'Data')).toBe(Data);
  });
});
