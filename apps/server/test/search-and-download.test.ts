import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { addInstallation, signIn, testApp } from './helpers/app.ts';
import { openTestDb } from './helpers/db.ts';
import { insertRecords, insertTransactions, withQuery } from './helpers/history.ts';

/**
 * What import-history.test.ts and transaction-logs.test.ts leave out at the HTTP level: quotes,
 * backslash sequences and the full-width forms that fold into % _ \ in searches of both lists and
 * both CSV exports (matched literally,
 * exact results against rows a LIKE wildcard or an escape would also match), a NUL character
 * (a French 400, not a database failure), and download names mixing every hostile part at once.
 */

let db: Db;
let app: FastifyInstance;
let cookie: string;

/** Texts put in the searched fields; every search below has exactly one right answer. */
const REFS: Record<string, string> = {
  PCT: '50%',
  PCTX: '50X',
  UND: 'a_b',
  UNDX: 'axb',
  BSL: 'C:\\dos',
  BSLX: 'C:Xdos',
  ESC_PCT: 'a\\%b',
  ESC_UND: 'a\\_b',
  APOS: "l'été",
  APOS2: 'l’été',
  DQ: 'le "devis"',
  DQ2: 'le devis',
  // Full-width forms: folding (unaccent) turns them into % _ \, so they are those characters to
  // the search, and never wildcards.
  FW_PCT: '70％',
  FW_UND: 'c＿d',
  FW_BSL: 'E:＼dos',
  FWX: '70X cXd E:Xdos',
};

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  const { installation } = await addInstallation(db, { syncId: 'SEARCH01' });
  const ids = Object.keys(REFS);
  await insertRecords(
    db,
    installation.id,
    ids.map((id, i) => ({
      IDInterne: id,
      DateHeure: `2025-01-01T10:${String(i).padStart(2, '0')}:00Z`,
      RefDoc: REFS[id],
      TypeEnreg: 'DocumentDEVIS',
      TypeElement: 'Création',
    })),
  );
  await insertTransactions(
    db,
    installation.id,
    ids.map((id, i) => ({
      ID: id,
      DateHeureTrt: `2025-01-01T10:${String(i).padStart(2, '0')}:00Z`,
      RefDoc: REFS[id],
      TypeDoc: 'DEVIS',
      NumTransaction: String(i),
      IDTablette: 'tab',
      LibelleTablette: 'pixel',
    })),
  );
  await insertRecords(db, installation.id, [
    {
      IDInterne: 'FILE1',
      DateHeure: '2025-01-02T10:00:00Z',
      RefDoc: 'file',
      file: {
        name: '..\\../x/"rap;port"\r\n\tSet-Cookie: a=b; été 日本\u0007.pdf',
        content: Buffer.from('%PDF'),
      },
    },
    {
      IDInterne: 'FILE2',
      DateHeure: '2025-01-02T10:01:00Z',
      RefDoc: 'file',
      file: { name: "=cmd|' -C calc'!A0 %0d%0a.csv", content: Buffer.from('a;b') },
    },
    {
      IDInterne: 'FILE3',
      DateHeure: '2025-01-02T10:02:00Z',
      RefDoc: 'file',
      // Shown as « Facture-2025-exe.pdf » by a browser or a file manager that honours the override.
      file: { name: 'Facture-2025-\u202efdp.exe\u2066\u200f', content: Buffer.from('MZ') },
    },
  ]);
  cookie = await signIn(app, 'SEARCH01');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const historyIds = async (search: string) => {
  const res = await app.inject({
    url: withQuery('/api/sync-history', { search, pageSize: 100 }),
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json<{ data: { IDInterne: string }[] }>()
    .data.map((r) => r.IDInterne)
    .sort();
};
const traceIds = async (searchText: string) => {
  const res = await app.inject({
    url: withQuery('/api/transaction-logs', { searchText, pageSize: 100 }),
    headers: { cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json<{ logs: { ID: string }[] }>()
    .logs.map((r) => r.ID)
    .sort();
};
/** The ids in a CSV export (the column named `idColumn`). */
const csvIds = async (path: string, query: Record<string, string>, idColumn: string) => {
  const res = await app.inject({ url: withQuery(path, query), headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const [header, ...rows] = res.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  const at = (header ?? '')
    .split(';')
    .map((h) => h.replace(/^"|"$/g, ''))
    .indexOf(idColumn);
  return rows.map((r) => (r.split(';')[at] ?? '').replace(/^"|"$/g, '')).sort();
};

const CASES: [string, string[]][] = [
  ['%', ['ESC_PCT', 'FW_PCT', 'PCT']],
  ['50%', ['PCT']],
  ['_', ['ESC_UND', 'FW_UND', 'UND']],
  ['a_b', ['UND']],
  ['\\', ['BSL', 'ESC_PCT', 'ESC_UND', 'FW_BSL']],
  ['C:\\d', ['BSL']],
  ['\\%', ['ESC_PCT']],
  ['a\\_b', ['ESC_UND']],
  // The typewriter and the typographic apostrophe are one character to the search (folded).
  ["'", ['APOS', 'APOS2']],
  ["l'été", ['APOS', 'APOS2']],
  ['’', ['APOS', 'APOS2']],
  ['"', ['DQ']],
  ['"devis"', ['DQ']],
  ["' OR '1'='1", []],
  ['%%', []],
  ['ETE', ['APOS', 'APOS2']],
  // Escaped after folding: full-width ％ ＿ ＼ in a term are literal too.
  ['50％', ['PCT']],
  ['％', ['ESC_PCT', 'FW_PCT', 'PCT']],
  ['70％', ['FW_PCT']],
  ['70%', ['FW_PCT']],
  ['a＿b', ['UND']],
  ['c＿d', ['FW_UND']],
  ['c_d', ['FW_UND']],
  ['C:＼d', ['BSL']],
  ['E:\\d', ['FW_BSL']],
  ['＼％', ['ESC_PCT']],
  ['a＼＿b', ['ESC_UND']],
  ['＿', ['ESC_UND', 'FW_UND', 'UND']],
];

describe('searches match quotes, %, _ and \\ literally', () => {
  it.each(CASES)('history and trace: %j', async (term, expected) => {
    expect(await historyIds(term)).toEqual(expected);
    expect(await traceIds(term)).toEqual(expected);
  });

  it.each(CASES)('CSV exports: %j', async (term, expected) => {
    expect(await csvIds('/api/exports/sync-history.csv', { search: term }, 'ID interne')).toEqual(expected);
    expect(await csvIds('/api/exports/transaction-logs.csv', { searchText: term }, 'ID')).toEqual(expected);
  });

  it('a NUL character in a search is a French 400 on the lists and the exports, not a failure', async () => {
    for (const url of [
      withQuery('/api/sync-history', { search: 'a\u0000b' }),
      withQuery('/api/transaction-logs', { searchText: '\u0000' }),
      withQuery('/api/exports/sync-history.csv', { search: 'x\u0000' }),
      withQuery('/api/exports/transaction-logs.csv', { searchText: '\u0000%' }),
    ]) {
      const res = await app.inject({ url, headers: { cookie } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(
        /^Requête invalide\. search(Text)? : .*caractère nul/,
      );
    }
  });
});

/** A control character (C0 or DEL). */
const hasControl = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

describe('download names', () => {
  /** The header is one line, its filename a quoted string without quote, backslash or control character. */
  function checkDisposition(header: string | undefined) {
    const m = /^attachment; filename="([^"\\]*)"(?:; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+))?$/.exec(
      header ?? '',
    );
    expect(m, header).not.toBeNull();
    expect(hasControl(header ?? '')).toBe(false);
    const ascii = m?.[1] ?? '';
    const utf8 = m?.[2] === undefined ? ascii : decodeURIComponent(m[2]);
    for (const name of [ascii, utf8]) {
      expect(name).not.toMatch(/[/\\"]/);
      expect(hasControl(name)).toBe(false);
      expect(name).not.toMatch(/^\.|^$/);
    }
    expect([...ascii].every((c) => c.charCodeAt(0) < 128)).toBe(true);
    return { ascii, utf8 };
  }

  it('folders, quotes, CR/LF, tab, BEL, `;` and non-ASCII at once: one safe header, filename and filename*', async () => {
    const res = await app.inject({ url: '/api/sync-history/FILE1/file', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const { ascii, utf8 } = checkDisposition(res.headers['content-disposition'] as string);
    expect(utf8).toBe('rap;portSet-Cookie: a=b; été 日本.pdf');
    expect(ascii).toBe('rap;portSet-Cookie: a=b; ete __.pdf');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/pdf');
  });

  it('bidirectional controls are dropped: the name reads as what the file is', async () => {
    const res = await app.inject({ url: '/api/sync-history/FILE3/file', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Facture-2025-fdp.exe"');
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it('a spreadsheet formula and percent sequences in a name stay text', async () => {
    const res = await app.inject({ url: '/api/sync-history/FILE2/file', headers: { cookie } });
    const { utf8 } = checkDisposition(res.headers['content-disposition'] as string);
    expect(utf8).toBe("=cmd|' -C calc'!A0 %0d%0a.csv");
    expect(res.headers['content-type']).not.toMatch(/html/);
  });
});
