/**
 * `--attack config` of bench/noisy-neighbour: installation A has a big configuration (about 20 MB:
 * the demo document with its Data lists and terminals grown to 6 MB, and 100 000 article families
 * excluded) and works it hard through the real routes, for the attack's seconds:
 *   - two console sessions, each looping on the exclusions save (POST /api/database/exclusions,
 *     the whole list of 100 000 families, 5.6 MB of JSON, as the screen sends it; the last family
 *     a new one each time), without If-Match (the last one wins);
 *   - one loop on the diagnostic of the stored text (GET /api/debug/xml-status);
 *   - one loop of the connector's PATCH /api/connector/v1/configuration (Info.VersionConnecteur
 *     changed each time: a new version of the 20 MB text).
 * Every one of them a new version of the whole document: its parse, edit and change computation
 * (in worker threads) and its write. A waits at most a second on a 429 or a 503's Retry-After.
 */
import * as engine from '@synchro/config-xml';
import { generateDocument } from '../config-xml/generate.ts';
import { sleep, type Tally } from './attack.ts';

/** Families in A's exclusions (the payload's maximum: ZExclusionsPayload). */
export const EXCLUDED_FAMILIES = 100_000;

const families = (n: number) => ({
  exclusions: Array.from({ length: n }, (_, i) => ({
    type: 'ItemFamily' as const,
    id: `F${i}|`,
    libelle: `Famille exclue ${i}`,
  })),
});

/** A's configuration: the demo text grown to 6 MB of Data and terminals, then 100 000 exclusions. */
export function bigConfiguration(demo: string): string {
  return engine.editExclusions(generateDocument(demo, 6_000_000), families(EXCLUDED_FAMILIES));
}

function count(t: Tally, key: string): void {
  t.byStatus.set(key, (t.byStatus.get(key) ?? 0) + 1);
}

/** One request of A, timed and counted as `<kind> <status>`; the seconds to wait after it. */
async function call(
  t: Tally,
  kind: string,
  url: string,
  init: RequestInit,
): Promise<{ ok: boolean; retryAfter: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    const text = await res.text();
    (t.ms[kind] ??= []).push(performance.now() - started);
    count(t, `${kind} ${res.status}`);
    if (res.ok) return { ok: true, retryAfter: 0 };
    // The refusals the fair share allows (busy, rate limit, a concurrent save): in French.
    const french = /[a-zé].*(serveur|Trop|requêtes|modifi|configuration|réessa)/i.test(text);
    if (!([409, 429, 503].includes(res.status) && french))
      t.wrong.push(`${kind} ${res.status} ${text.slice(0, 200)}`);
    const retryAfter = Number(res.headers.get('retry-after') ?? 0);
    return { ok: false, retryAfter: retryAfter || (res.status === 429 || res.status === 503 ? 1 : 0) };
  } catch (err) {
    count(t, `${kind} connexion coupée`);
    t.wrong.push(`${kind}: ${(err as Error).message}`);
    return { ok: false, retryAfter: 1 };
  }
}

export async function attackConfig(
  base: string,
  token: string,
  cookies: string[],
  until: number,
  t: Tally,
): Promise<void> {
  // Every save changes one family: the 99 999 first ones, and one of its own (always a new version).
  const head = JSON.stringify(families(EXCLUDED_FAMILIES - 1)).slice(0, -2);
  let saved = 0;
  const body = () =>
    Buffer.from(`${head},{"type":"ItemFamily","id":"S${++saved}|","libelle":"Famille ${saved}"}]}`);
  const loop = async (step: (k: number) => Promise<{ retryAfter: number }>) => {
    for (let k = 0; Date.now() < until; k += 1) {
      const { retryAfter } = await step(k);
      if (retryAfter) await sleep(Math.min(1, retryAfter) * 1000);
    }
  };
  const saves = (cookie: string) =>
    loop(() =>
      call(t, 'save', `${base}/api/database/exclusions`, {
        method: 'POST',
        headers: { cookie, origin: base, 'content-type': 'application/json' },
        body: body(),
      }),
    );
  const diagnostics = (cookie: string) =>
    loop(() => call(t, 'xml-status', `${base}/api/debug/xml-status`, { headers: { cookie } }));
  const patches = () =>
    loop((k) =>
      call(t, 'patch', `${base}/api/connector/v1/configuration`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ Info: { VersionConnecteur: `6.19.${k}` } }),
      }),
    );
  const [one, two] = cookies as [string, string];
  await Promise.all([saves(one), saves(two ?? one), diagnostics(one), patches()]);
}
