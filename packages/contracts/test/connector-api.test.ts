import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CONNECTOR_ERROR_CODES,
  CONNECTOR_LIMITS,
  ZAutomateReport,
  ZAutomateReportAnswer,
  ZConnectorBatchAnswer,
  ZConnectorConfigPatch,
  ZConnectorConfigPatchAnswer,
  ZConnectorError,
  ZConnectorFile,
  ZImportQueueAnswer,
  ZImportQueueQuery,
  ZImportRecordIdParam,
  ZImportRecord,
  ZImportRecordsEnvelope,
  ZImportRecordsRequest,
  ZImportResult,
  ZImportResultAnswer,
  ZTransaction,
  ZTransactionsEnvelope,
  ZTransactionsRequest,
  base64DecodedSize,
  connectorFieldPath,
  connectorRequestMessage,
  normaliseBase64,
  parseConnectorItem,
  parseConnectorRequest,
  recordXmlTooLargeMessage,
  utf8ByteLength,
  utf8Within,
} from '../src/index.ts';

/** The issues of a refused request, as `path → message`. */
function refusal(schema: z.ZodType, data: unknown): Record<string, string> {
  const r = parseConnectorRequest(schema, data);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(data).slice(0, 200)}`);
  return Object.fromEntries(r.issues.map((i) => [i.path, i.message]));
}

function accepted<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const r = parseConnectorRequest(schema, data);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

const record = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  IDInterne: 'NUXIDEVA61267c591917f0e1',
  TypeEnreg: 'DocumentDEVIS',
  RefDoc: 'XX_13708041526',
  DateHeure: '2025-11-14T09:12:00',
  NumLigne: 3,
  TypeElement: 'CrÃ©ation',
  Etat: 0,
  Log: 'Import OK',
  Enreg: '<SyncNuxiDev><Table>documentdevis</Table></SyncNuxiDev>',
  Fichier: { Nom: 'DEVIS-0042.pdf', Contenu: 'JVBERi0xLjQK' },
  ...over,
});

const transaction = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  ID: 'T-000812',
  Err: 0,
  DateHeureTrt: '2025-11-14T09:12:03',
  NumTransaction: '812',
  TypeDoc: 'DEVIS',
  RefDoc: 'XX_13708041526',
  IDTablette: '815bf75ff86d94fa',
  LibelleTablette: 'pixel 8',
  Log: 'ligne 1\r\nligne 2',
  ...over,
});

describe('POST /automate: the automate report', () => {
  it('accepts the contract example and keeps ip optional', () => {
    expect(
      accepted(ZAutomateReport, {
        port: 8085,
        version: '6.11.23.9',
        machineName: 'SRV-ERP',
        ip: '203.0.113.10',
      }),
    ).toEqual({ port: 8085, version: '6.11.23.9', machineName: 'SRV-ERP', ip: '203.0.113.10' });
    expect(accepted(ZAutomateReport, { port: '8085', version: '6.11.23.9', machineName: 'SRV-ERP' })).toEqual(
      {
        port: 8085,
        version: '6.11.23.9',
        machineName: 'SRV-ERP',
      },
    );
    expect(accepted(ZAutomateReport, { port: 80, ip: null }).ip).toBeUndefined();
    expect(accepted(ZAutomateReport, { port: 80, ip: '' }).ip).toBeUndefined();
    expect(accepted(ZAutomateReport, { port: 80, ip: ' 2001:db8::1 ' }).ip).toBe('2001:db8::1');
    expect(accepted(ZAutomateReport, { port: 80 })).toMatchObject({ version: '', machineName: '' });
  });

  it('refuses a port out of range, a name that is not text, an address that is not one', () => {
    expect(refusal(ZAutomateReport, { port: 0 })).toEqual({
      port: 'nombre entier attendu, entre 1 et 65\u202f535',
    });
    expect(Object.keys(refusal(ZAutomateReport, { port: 70000 }))).toEqual(['port']);
    expect(Object.keys(refusal(ZAutomateReport, { port: 80.5 }))).toEqual(['port']);
    expect(refusal(ZAutomateReport, {})).toEqual({ port: 'champ obligatoire' });
    expect(refusal(ZAutomateReport, { port: 80, ip: '300.1.1.1' })).toEqual({
      ip: 'adresse IPv4 ou IPv6 attendue',
    });
    expect(refusal(ZAutomateReport, { port: 80, ip: 'srv.example' })).toHaveProperty('ip');
    expect(refusal(ZAutomateReport, { port: 80, machineName: { a: 1 } })).toEqual({
      machineName: 'texte attendu',
    });
    expect(refusal(ZAutomateReport, { port: 80, version: 'x'.repeat(101) })).toEqual({
      version: 'au plus 100 caractères',
    });
  });

  it('describes its answer', () => {
    const answer = { ip: '203.0.113.10', port: 8085, registeredAt: '2025-11-14T08:12:00.000Z' };
    expect(ZAutomateReportAnswer.parse(answer)).toEqual(answer);
    expect(ZAutomateReportAnswer.safeParse({ ip: '203.0.113.10' }).success).toBe(false);
  });
});

describe('PATCH /configuration: the parts the connector owns', () => {
  const example = {
    Info: {
      VersionConnecteur: '6.19.4',
      NuxiAutomateInstall: '1',
      NuxiAutomateLibelle: 'Version : 6.11.23.9',
      DateMAJConfig: '20251114093300664',
      Exe: 'C:\\Nuxilog\\Connecteur.exe',
      Serial: 'ABC-123',
    },
    DerSynchro: {
      DateHeure: '20251114080952542',
      TypeDeSync: 'ComplÃ¨te',
      Duree: '00:04:11',
      DureeAlerte: '0',
      NbEnreg: '1838',
      Vitesse: '5927',
      Taille: '3,721 Mo',
      TailleAlerte: '0',
    },
    Sources: [{ index: 1, Status: '1', StatusLibelle: 'Cnx 1 Ok : SQL' }],
    Data: '<Data><SALARIES/></Data>',
  };

  it('accepts the contract example as it is (texts untouched)', () => {
    expect(accepted(ZConnectorConfigPatch, example)).toEqual(example);
  });

  it('accepts an empty patch, nulls as absent members, numbers for values', () => {
    expect(accepted(ZConnectorConfigPatch, {})).toEqual({});
    expect(accepted(ZConnectorConfigPatch, { Info: null, Data: null, Sources: null })).toEqual({});
    expect(accepted(ZConnectorConfigPatch, { DerSynchro: { NbEnreg: 1838 } })).toEqual({
      DerSynchro: { NbEnreg: '1838' },
    });
    expect(accepted(ZConnectorConfigPatch, { Sources: [{ index: '2', Status: 0 }] })).toEqual({
      Sources: [{ index: 2, Status: '0' }],
    });
    // Members a later connector adds are ignored, not refused (the contract grows by addition).
    expect(accepted(ZConnectorConfigPatch, { Futur: 1, Info: { Exe: 'x' } })).toEqual({ Info: { Exe: 'x' } });
  });

  it('refuses bad names, unsafe values, unsafe numbers, bad or repeated indexes, an empty Data', () => {
    expect(refusal(ZConnectorConfigPatch, { Info: { '1abc': 'x' } })).toEqual({
      'Info.1abc': 'nom d’élément invalide sous Info',
    });
    expect(refusal(ZConnectorConfigPatch, { Info: { 'a b': 'x' } })).toHaveProperty(['Info.a b']);
    expect(refusal(ZConnectorConfigPatch, { Info: { __proto__x: 'x' } })).toHaveProperty(['Info.__proto__x']);
    expect(refusal(ZConnectorConfigPatch, { DerSynchro: { Duree: 'a\u0000b' } })).toEqual({
      'DerSynchro.Duree': 'contient un caractère non autorisé (caractère de contrôle ou invalide)',
    });
    expect(refusal(ZConnectorConfigPatch, { Info: { DateMAJConfig: 20251114093300664 } })).toEqual({
      'Info.DateMAJConfig': 'texte attendu',
    });
    expect(refusal(ZConnectorConfigPatch, { Info: { Exe: null } })).toEqual({ 'Info.Exe': 'texte attendu' });
    expect(refusal(ZConnectorConfigPatch, { Info: 'x' })).toEqual({
      Info: 'objet { nom: valeur } attendu pour Info',
    });
    expect(refusal(ZConnectorConfigPatch, { Sources: [{ index: 0 }] })).toEqual({
      'Sources[0].index': 'nombre entier attendu, entre 1 et 100',
    });
    expect(refusal(ZConnectorConfigPatch, { Sources: [{ index: 2 }, { index: '2' }] })).toEqual({
      'Sources[1].index': 'source 2 en double',
    });
    expect(refusal(ZConnectorConfigPatch, { Sources: [{ Status: '1' }] })).toEqual({
      'Sources[0].index': 'champ obligatoire',
    });
    expect(refusal(ZConnectorConfigPatch, { Data: '  ' })).toEqual({
      Data: 'élément <Data> attendu (texte XML)',
    });
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`K${i}`, 'v']));
    expect(refusal(ZConnectorConfigPatch, { Info: many })).toEqual({ Info: 'au plus 100 éléments' });
    expect(refusal(ZConnectorConfigPatch, { Info: { Exe: 'x'.repeat(10_001) } })).toEqual({
      'Info.Exe': 'au plus 10\u202f000 caractères',
    });
  });

  it('describes its answer', () => {
    expect(ZConnectorConfigPatchAnswer.parse({ version: 12 })).toEqual({ version: 12 });
    expect(ZConnectorConfigPatchAnswer.safeParse({ version: 0 }).success).toBe(false);
  });
});

describe('POST /import-records', () => {
  it('accepts the contract example and outputs the normal form', () => {
    const out = accepted(ZImportRecordsRequest, { records: [record()] });
    expect(out.records[0]).toEqual(record());
  });

  it('normalises what the connector plainly means the same way', () => {
    const out = accepted(ZImportRecordsRequest, {
      records: [
        record({ NumLigne: '3', Etat: '-1', Log: null, Fichier: null }),
        record({ IDInterne: 42, RefDoc: 13708041526, NumLigne: null, TypeElement: undefined }),
      ],
    });
    expect(out.records[0]).toMatchObject({ NumLigne: 3, Etat: -1, Log: undefined, Fichier: undefined });
    expect(out.records[1]).toMatchObject({
      IDInterne: '42',
      RefDoc: '13708041526',
      NumLigne: 0,
      TypeElement: '',
    });
    expect(accepted(ZImportRecordsRequest, { records: [] })).toEqual({ records: [] });
  });

  it('names every invalid field with its index in the batch', () => {
    const issues = refusal(ZImportRecordsRequest, {
      records: [
        record(),
        record({ Etat: 2 }),
        record({ DateHeure: '14/11/2025 09:12' }),
        record({ IDInterne: '  ', NumLigne: 'trois' }),
        record({ Enreg: '' }),
        record({ Fichier: { Nom: 'a.pdf', Contenu: 'not base64!' } }),
      ],
    });
    expect(issues).toEqual({
      'records[1].Etat': 'Etat doit valoir 0 (à importer), 1 (importé) ou -1 (erreur)',
      'records[2].DateHeure':
        'date et heure ISO 8601 attendues (2025-11-14T09:12:00, ou avec décalage 2025-11-14T09:12:00+01:00)',
      'records[3].IDInterne': 'ne doit pas être vide',
      'records[3].NumLigne':
        'nombre entier attendu, entre -2\u202f147\u202f483\u202f648 et 2\u202f147\u202f483\u202f647',
      'records[4].Enreg': 'ne doit pas être vide',
      'records[5].Fichier.Contenu': 'contenu en base64 invalide',
    });
  });

  it('refuses missing members, more than 500 records, and a record XML over 50 MB', () => {
    expect(refusal(ZImportRecordsRequest, {})).toEqual({ records: 'champ obligatoire' });
    expect(refusal(ZImportRecordsRequest, { records: [{}] })).toEqual({
      'records[0].IDInterne': 'champ obligatoire',
      'records[0].DateHeure': 'champ obligatoire',
      'records[0].Etat': 'champ obligatoire',
      'records[0].Enreg': 'champ obligatoire',
    });
    const tooMany = Array.from({ length: CONNECTOR_LIMITS.recordsPerRequest + 1 }, (_, i) =>
      record({ IDInterne: `R${i}`, Fichier: undefined }),
    );
    expect(refusal(ZImportRecordsRequest, { records: tooMany })).toEqual({
      records: 'au plus 500 enregistrements par requête',
    });
    const big = `<a>${'é'.repeat(26 * 1024 * 1024)}</a>`; // 52 MB in UTF-8, 26 M characters
    expect(refusal(ZImportRecordsRequest, { records: [record({ Enreg: big })] })).toEqual({
      'records[0].Enreg':
        'Le fichier XML est trop volumineux (52,0 MB). La taille maximale autorisée est de 50MB.',
    });
  });

  it('checks the file: a name, base64 content within 25 MB once decoded', () => {
    expect(accepted(ZConnectorFile, { Nom: 'a.png', Contenu: 'iVBO\r\nRw0K' })).toEqual({
      Nom: 'a.png',
      Contenu: 'iVBORw0K',
    });
    expect(accepted(ZConnectorFile, { Nom: 'a.txt', Contenu: 'QUI' }).Contenu).toBe('QUI=');
    expect(accepted(ZConnectorFile, { Nom: 'vide.txt', Contenu: '' }).Contenu).toBe('');
    expect(refusal(ZConnectorFile, { Nom: '', Contenu: 'QUJD' })).toEqual({ Nom: 'ne doit pas être vide' });
    expect(refusal(ZConnectorFile, { Nom: 'a', Contenu: 'QUJD=' })).toEqual({
      Contenu: 'contenu en base64 invalide',
    });
    expect(refusal(ZConnectorFile, { Nom: 'a', Contenu: 'QUJD-_' })).toEqual({
      Contenu: 'contenu en base64 invalide',
    });
    expect(refusal(ZConnectorFile, 'x')).toEqual({ '': 'objet { Nom, Contenu } attendu' });
    const overLimit = 'A'.repeat(4 * Math.ceil((CONNECTOR_LIMITS.fileMaxBytes + 3) / 3));
    expect(refusal(ZConnectorFile, { Nom: 'a', Contenu: overLimit })).toEqual({
      Contenu: 'fichier trop volumineux (au plus 25 Mo une fois décodé)',
    });
    const atLimit = 'A'.repeat(4 * Math.floor(CONNECTOR_LIMITS.fileMaxBytes / 3));
    expect(accepted(ZConnectorFile, { Nom: 'a', Contenu: atLimit }).Contenu.length).toBe(atLimit.length);
  });

  it('describes the batch answer', () => {
    expect(ZConnectorBatchAnswer.parse({ inserted: 3, duplicates: 2 })).toEqual({
      inserted: 3,
      duplicates: 2,
    });
    expect(ZConnectorBatchAnswer.safeParse({ inserted: -1, duplicates: 0 }).success).toBe(false);
  });
});

describe('GET /import-records/queue and POST /import-records/{IDInterne}/result', () => {
  it('reads the queue limit from the query string, 100 by default, at most 500', () => {
    expect(accepted(ZImportQueueQuery, {})).toEqual({ limit: 100 });
    expect(accepted(ZImportQueueQuery, { limit: '250' })).toEqual({ limit: 250 });
    expect(refusal(ZImportQueueQuery, { limit: '501' })).toEqual({
      limit: 'nombre entier attendu, entre 1 et 500',
    });
    expect(refusal(ZImportQueueQuery, { limit: 'abc' })).toHaveProperty('limit');
  });

  it('describes the queue answer', () => {
    const answer = {
      records: [
        {
          IDInterne: 'A',
          TypeEnreg: 'GED',
          RefDoc: 'R',
          DateHeure: '2025-11-14T09:12:00.000+01:00',
          NumLigne: 0,
          TypeElement: '',
          Enreg: '<a/>',
        },
      ],
    };
    expect(ZImportQueueAnswer.parse(answer)).toEqual(answer);
    expect(
      ZImportQueueAnswer.safeParse({ records: [{ ...answer.records[0], DateHeure: 'hier' }] }).success,
    ).toBe(false);
  });

  it('accepts a result 1 or -1, with an optional log and file', () => {
    expect(accepted(ZImportResult, { Etat: 1 })).toEqual({ Etat: 1 });
    expect(accepted(ZImportResult, { Etat: '-1', Log: 'Tiers inconnu', Fichier: null })).toEqual({
      Etat: -1,
      Log: 'Tiers inconnu',
    });
    expect(refusal(ZImportResult, { Etat: 0 })).toEqual({
      Etat: 'Etat doit valoir 1 (importé) ou -1 (erreur)',
    });
    expect(refusal(ZImportResult, { Etat: 1, Log: 'a\u0000' })).toEqual({
      Log: 'contient un caractère nul ou invalide',
    });
    expect(accepted(ZImportRecordIdParam, { IDInterne: 'NUXI1' })).toEqual({ IDInterne: 'NUXI1' });
    expect(refusal(ZImportRecordIdParam, { IDInterne: 'x'.repeat(101) })).toEqual({
      IDInterne: 'au plus 100 caractères',
    });
    expect(ZImportResultAnswer.parse({ IDInterne: 'A', Etat: -1 })).toEqual({ IDInterne: 'A', Etat: -1 });
  });
});

describe('POST /transactions', () => {
  it('accepts the contract example and normalises numbers, booleans, nulls', () => {
    expect(accepted(ZTransactionsRequest, { transactions: [transaction()] }).transactions[0]).toEqual(
      transaction(),
    );
    const out = accepted(ZTransactionsRequest, {
      transactions: [transaction({ ID: 812, Err: '1', NumTransaction: 812, Log: null, IDTablette: null })],
    });
    expect(out.transactions[0]).toMatchObject({
      ID: '812',
      Err: 1,
      NumTransaction: '812',
      Log: '',
      IDTablette: '',
    });
    expect(
      accepted(ZTransactionsRequest, { transactions: [transaction({ Err: true })] }).transactions[0]?.Err,
    ).toBe(1);
  });

  it('names the invalid fields and refuses over 1 000 transactions', () => {
    expect(
      refusal(ZTransactionsRequest, {
        transactions: [
          transaction(),
          transaction({ Err: 2, DateHeureTrt: '2025-11-14' }),
          transaction({ ID: '' }),
        ],
      }),
    ).toEqual({
      'transactions[1].Err': 'Err doit valoir 0 (succès) ou 1 (erreur)',
      'transactions[1].DateHeureTrt':
        'date et heure ISO 8601 attendues (2025-11-14T09:12:00, ou avec décalage 2025-11-14T09:12:00+01:00)',
      'transactions[2].ID': 'ne doit pas être vide',
    });
    const many = Array.from({ length: 1001 }, (_, i) => transaction({ ID: `T${i}` }));
    expect(refusal(ZTransactionsRequest, { transactions: many })).toEqual({
      transactions: 'au plus 1\u202f000 transactions par requête',
    });
  });
});

describe('errors and messages', () => {
  it('has one error shape and a status per code', () => {
    expect(ZConnectorError.parse({ error: 'not-found', message: 'Enregistrement inconnu.' })).toBeTruthy();
    expect(ZConnectorError.safeParse({ message: 'x' }).success).toBe(false);
    expect(CONNECTOR_ERROR_CODES['invalid-request']).toBe(400);
    expect(CONNECTOR_ERROR_CODES['payload-too-large']).toBe(413);
  });

  it('writes paths the way the connector reads them', () => {
    expect(connectorFieldPath(['records', 3, 'DateHeure'])).toBe('records[3].DateHeure');
    expect(connectorFieldPath(['Sources', 0, 'index'])).toBe('Sources[0].index');
    expect(connectorFieldPath([0, 'a'])).toBe('[0].a');
    expect(connectorFieldPath([])).toBe('');
  });

  it('puts the invalid fields in one French message, five at most', () => {
    const r = parseConnectorRequest(ZImportRecordsRequest, {
      records: [record({ DateHeure: 'x' }), record({ Etat: 9 })],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toBe(
      'Requête invalide\u00a0: records[0].DateHeure\u00a0: date et heure ISO 8601 attendues (2025-11-14T09:12:00, ou avec décalage 2025-11-14T09:12:00+01:00)\u202f; records[1].Etat\u00a0: Etat doit valoir 0 (à importer), 1 (importé) ou -1 (erreur)',
    );
    const seven = Array.from({ length: 7 }, (_, i) => ({ path: `f${i}`, message: 'm' }));
    expect(connectorRequestMessage(seven)).toBe(
      'Requête invalide\u00a0: f0\u00a0: m\u202f; f1\u00a0: m\u202f; f2\u00a0: m\u202f; f3\u00a0: m\u202f; f4\u00a0: m\u202f; et 2 autres erreurs',
    );
    expect(connectorRequestMessage([{ path: '', message: 'Corps JSON attendu' }])).toBe(
      'Requête invalide\u00a0: Corps JSON attendu',
    );
  });

  it('writes the size message of the record editor with one decimal', () => {
    expect(recordXmlTooLargeMessage(53_687_092)).toBe(
      'Le fichier XML est trop volumineux (51,2 MB). La taille maximale autorisée est de 50MB.',
    );
  });
});

describe('helpers', () => {
  it('counts UTF-8 bytes, stopping past a limit', () => {
    expect(utf8ByteLength('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(utf8ByteLength('\uD800')).toBe(3);
    expect(utf8ByteLength('éééé', 3)).toBe(4);
  });

  it('counts as a UTF-8 encoder does (lone surrogates as U+FFFD), natively or not', () => {
    const encoder = new TextEncoder();
    const units = ['a', 'é', '€', '\ud83d\ude00', '\ud83d', '\ude00', '\ud83d\ud83d', '\u0000'];
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let k = n % 13; k > 0; k--) text += units[(n * 7 + k * 3) % units.length];
      expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
    }
  });

  it('tells whether a text is within a UTF-8 limit, a short one without counting', () => {
    expect(utf8Within('aé€', 6)).toBe(true);
    expect(utf8Within('aé€', 5)).toBe(false);
    expect(utf8Within('€€€', 9)).toBe(true);
    expect(utf8Within('€€€€', 11)).toBe(false);
    expect(utf8Within('😀', 4)).toBe(true);
    expect(utf8Within('😀', 3)).toBe(false);
    expect(utf8Within('', 0)).toBe(true);
  });

  it('normalises base64 and tells its decoded size', () => {
    expect(normaliseBase64('QUJD')).toBe('QUJD');
    expect(normaliseBase64('QUJDRA')).toBe('QUJDRA==');
    expect(normaliseBase64(' QU JD\nRA== ')).toBe('QUJDRA==');
    expect(normaliseBase64('Q')).toBeNull();
    expect(normaliseBase64('QUJDR===')).toBeNull();
    expect(normaliseBase64('QU=D')).toBeNull();
    for (const bytes of [0, 1, 2, 3, 4, 5, 100]) {
      const encoded = Buffer.alloc(bytes, 7).toString('base64');
      expect(base64DecodedSize(encoded)).toBe(bytes);
      expect(base64DecodedSize(normaliseBase64(encoded.replace(/=+$/, '')) ?? '')).toBe(bytes);
    }
  });
});

describe('a batch checked item by item (envelope + parseConnectorItem)', () => {
  /** The issues of the envelope, then of each item: what a server checking item by item finds. */
  function itemByItem(envelope: z.ZodType, item: z.ZodType, key: string, body: unknown) {
    const outer = parseConnectorRequest(envelope, body);
    if (!outer.ok) return outer.issues;
    const items = (outer.value as Record<string, unknown[]>)[key] ?? [];
    return items.flatMap((value, i) => {
      const r = parseConnectorItem(item, value, `${key}[${i}]`);
      return r.ok ? [] : r.issues;
    });
  }
  const whole = (schema: z.ZodType, body: unknown) => {
    const r = parseConnectorRequest(schema, body);
    return r.ok ? [] : r.issues;
  };

  it.each<[string, unknown]>([
    ['valid', { records: [record(), record({ Log: null, NumLigne: '4' })] }],
    [
      'faulty fields',
      { records: [record({ DateHeure: 'x' }), record(), record({ Etat: 9, Fichier: { Nom: '' } })] },
    ],
    ['an item that is not an object', { records: [record(), 'texte', null] }],
    ['no list', { records: 'non' }],
    ['too many', { records: Array.from({ length: 501 }, () => record()) }],
    ['no body', undefined],
  ])('import records, %s: the same issues as the whole schema', (_, body) => {
    expect(itemByItem(ZImportRecordsEnvelope, ZImportRecord, 'records', body)).toEqual(
      whole(ZImportRecordsRequest, body),
    );
  });

  it.each<[string, unknown]>([
    ['faulty fields', { transactions: [transaction({ Err: 3 }), transaction({ ID: '' })] }],
    ['too many', { transactions: Array.from({ length: 1001 }, () => transaction()) }],
    ['not a list', { transactions: {} }],
  ])('transactions, %s: the same issues as the whole schema', (_, body) => {
    expect(itemByItem(ZTransactionsEnvelope, ZTransaction, 'transactions', body)).toEqual(
      whole(ZTransactionsRequest, body),
    );
  });

  it('gives the normal form of a valid item', () => {
    const r = parseConnectorItem(ZImportRecord, record({ NumLigne: '7', Log: null }), 'records[0]');
    expect(r).toMatchObject({ ok: true, value: { NumLigne: 7 } });
  });
});
