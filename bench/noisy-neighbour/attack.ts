/**
 * Installation A of bench/noisy-neighbour: what it sends through the connector API. Run as a
 * process of its own (attacker.ts) so that building 80 MB bodies never delays B's requests, which
 * the main script times.
 */
import { randomBytes } from 'node:crypto';

const CONNECTOR = '/api/connector/v1';

const ISO = '2025-11-14T09:12:00';
let sent = 0;
export const nextId = (prefix: string) => `${prefix}${String(++sent).padStart(8, '0')}`;

export function recordJson(id: string, enreg: string): string {
  return JSON.stringify({
    IDInterne: id,
    TypeEnreg: 'DocumentDEVIS',
    RefDoc: `XX_${id}`,
    DateHeure: ISO,
    NumLigne: 1,
    TypeElement: 'CrÃ©ation',
    Etat: 1,
    Enreg: enreg,
  });
}

export const attributes = (n: number) => `<r ${Array.from({ length: n }, (_, k) => `a${k}="1"`).join(' ')}/>`;
const ADVERSARIAL: { name: string; enreg: string }[] = [
  { name: '100 000 attributs', enreg: attributes(100_000) },
  { name: '200 000 attributs', enreg: attributes(200_000) },
  { name: '10 Mo d’éléments courts', enreg: `<r>${'<e>1</e>'.repeat((10 * 1024 * 1024) / 8)}</r>` },
  { name: 'profondeur limite', enreg: `${'<d>'.repeat(255)}x${'</d>'.repeat(255)}` },
];

/** 160 KB of record: accented text fields and an incompressible photo in base64. */
const BIG_RECORD_ENREG = (() => {
  const fields = Array.from({ length: 400 }, (_, k) => `<Champ${k}>Valeur ${k} du devis Ã©tÃ©</Champ${k}>`);
  const photo = randomBytes(96 * 1024).toString('base64');
  return `<SyncNuxiDev><Table>images</Table><Enregistrement>${fields.join('')}</Enregistrement><NomFichier>photo.jpg</NomFichier><Photo>${photo}</Photo></SyncNuxiDev>`;
})();

function batchBody(prefix: string): { body: Buffer; ids: string[] } {
  const ids = Array.from({ length: 500 }, () => nextId(prefix));
  const body = `{"records":[${ids.map((id) => recordJson(id, BIG_RECORD_ENREG)).join(',')}]}`;
  return { body: Buffer.from(body), ids };
}

export interface Tally {
  byStatus: Map<string, number>;
  /** Answers that were not 2xx, 503 or 507 with a French message. */
  wrong: string[];
  batches: { ids: string[]; accepted: boolean }[];
  /** Answer times by kind of request, ms (`--attack config`). */
  ms: Record<string, number[]>;
}

export const tally = (): Tally => ({ byStatus: new Map(), wrong: [], batches: [], ms: {} });

function count(t: Tally, key: string): void {
  t.byStatus.set(key, (t.byStatus.get(key) ?? 0) + 1);
}

export async function postConnector(
  base: string,
  token: string,
  path: string,
  body: Buffer,
  t: Tally,
): Promise<{ ok: boolean; retryAfter: number }> {
  try {
    const res = await fetch(`${base}${CONNECTOR}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    count(t, String(res.status));
    if (res.ok) return { ok: true, retryAfter: 0 };
    const french = /[a-zé].*(serveur|stockage|Requête|enregistr)/i.test(text);
    if (!((res.status === 503 || res.status === 507 || res.status === 400) && french)) {
      t.wrong.push(`${res.status} ${text.slice(0, 200)}`);
    }
    return { ok: false, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
  } catch {
    // A connection cut while the body was on its way: the server did not answer this request.
    count(t, `connexion coupée`);
    t.wrong.push('connexion coupée avant la réponse');
    return { ok: false, retryAfter: 1 };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function attack(base: string, token: string, until: number, t: Tally): Promise<void> {
  const adversarial = async () => {
    for (let k = 0; Date.now() < until; k += 1) {
      const shape = ADVERSARIAL[k % ADVERSARIAL.length] as (typeof ADVERSARIAL)[number];
      const body = Buffer.from(`{"records":[${recordJson(nextId('ADV'), shape.enreg)}]}`);
      const { retryAfter } = await postConnector(base, token, '/import-records', body, t);
      if (retryAfter) await sleep(Math.min(1, retryAfter) * 1000);
    }
  };
  const batches = async () => {
    while (Date.now() < until) {
      const { body, ids } = batchBody('BIG');
      const { ok, retryAfter } = await postConnector(base, token, '/import-records', body, t);
      t.batches.push({ ids, accepted: ok });
      if (retryAfter) await sleep(Math.min(1, retryAfter) * 1000);
    }
  };
  await Promise.all([adversarial(), batches(), batches(), batches()]);
}
