import { CONFIG_SECTIONS, ZRepairResponse, ZXmlStatusResponse } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, testApp, useTestApp } from '../../../test/helpers/app.ts';
import { inlineOffload } from '../../offload/pool.ts';
import { watchedOffload } from '../../../test/helpers/offload.ts';

const ctx = useTestApp();

let counter = 0;
async function fresh(configText = FIXTURE_CONFIG) {
  const syncId = `DBG${++counter}`;
  const { installation } = await addInstallation(ctx.db, { syncId, configText });
  return { id: installation.id, cookie: await signIn(ctx.app, syncId) };
}

async function stored(id: string) {
  const [row] = await ctx.db.query<{ text: string; version: number }>(
    'SELECT text, version FROM configurations WHERE installation_id = $1',
    [id],
  );
  return row;
}

async function history(id: string) {
  return ctx.db.query<{ version: number; text: string; author: string; section: string | null }>(
    'SELECT version, text, author, section FROM configuration_versions WHERE installation_id = $1 ORDER BY version',
    [id],
  );
}

const repair = (cookie: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/debug/repair-xml', headers: { cookie }, payload: {} });
const status = (cookie: string) => ctx.app.inject({ url: '/api/debug/xml-status', headers: { cookie } });

// First text end tag of the fixture on its own line: `<Serveur>…</Serveur>` of the first Source.
const firstServeur = /<Serveur>([^<]*)<\/Serveur>/;

describe('debug', () => {
  it('401 without a session', async () => {
    expect((await ctx.app.inject({ url: '/api/debug/xml-status' })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/debug/repair-xml', payload: {} })).statusCode,
    ).toBe(401);
  });

  it('GET /api/debug/xml-status: the diagnostic of the stored text', async () => {
    const { cookie } = await fresh();
    const res = await status(cookie);
    expect(res.statusCode).toBe(200);
    const d = ZXmlStatusResponse.parse(res.json());
    expect(d).toMatchObject({
      hasXML: true,
      xmlLength: FIXTURE_CONFIG.length,
      isValid: true,
      parseError: null,
    });
  });

  it.each([
    ['a bare &', FIXTURE_CONFIG.replace(firstServeur, '<Serveur>Dupont & Fils</Serveur>'), 'bare-ampersand'],
    ['a missing end tag', FIXTURE_CONFIG.replace(firstServeur, '<Serveur>$1'), 'unclosed-tag'],
  ])('repairs %s: backup version holds the old text byte for byte', async (_name, broken, code) => {
    const { id, cookie } = await fresh(broken);
    const before = ZXmlStatusResponse.parse((await status(cookie)).json());
    expect(before.isValid).toBe(false);
    expect(
      (await ctx.app.inject({ url: CONFIG_SECTIONS.sources.getPath, headers: { cookie } })).statusCode,
    ).toBe(422);

    const res = await repair(cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = ZRepairResponse.parse(res.json());
    expect(body.backupVersion).toBe(1);
    expect(body.version).toBe(2);
    expect(body.changes.map((c) => c.code)).toContain(code);
    expect(body.diagnostic.isValid).toBe(true);

    const rows = await history(id);
    expect(rows.map((r) => [r.version, r.author, r.section])).toEqual([
      [1, 'admin', null],
      [2, 'repair', null],
    ]);
    expect(rows[0]?.text === broken).toBe(true);
    expect((await stored(id))?.version).toBe(2);
    expect(ZXmlStatusResponse.parse((await status(cookie)).json()).isValid).toBe(true);
    // The views read the repaired version at once.
    expect(
      (await ctx.app.inject({ url: CONFIG_SECTIONS.sources.getPath, headers: { cookie } })).statusCode,
    ).toBe(200);
    const [audit] = await ctx.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE installation_id = $1 AND action = 'config.repair'`,
      [id],
    );
    expect(audit?.details).toMatchObject({ backupVersion: 1, version: 2 });
    expect(JSON.stringify(audit?.details)).not.toContain('Dupont');
  });

  it('an unrepairable document: 422 in French, nothing changed', async () => {
    const truncated = FIXTURE_CONFIG.slice(0, Math.floor(FIXTURE_CONFIG.length / 2));
    const { id, cookie } = await fresh(truncated);
    const res = await repair(cookie);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/[a-zé]/);
    expect(await stored(id)).toEqual({ text: truncated, version: 1 });
    expect(await history(id)).toHaveLength(1);
  });

  it('nothing to repair: no changes and no new version', async () => {
    const { id, cookie } = await fresh();
    // The fixture carries double-escaping artefacts: the first repair cleans them.
    const first = ZRepairResponse.parse((await repair(cookie)).json());
    expect(first.version).toBe(2);
    const second = await repair(cookie);
    expect(second.statusCode).toBe(200);
    expect(ZRepairResponse.parse(second.json())).toMatchObject({ changes: [], backupVersion: 2, version: 2 });
    expect((await stored(id))?.version).toBe(2);
    expect(await history(id)).toHaveLength(2);
  });
});

describe('secrets in the diagnostic', () => {
  const SECRETS = [
    'Cdata-pass-1',
    'Comment-pass-2',
    'Avant-3',
    'Apres-4',
    'Imbrique-5',
    'AIzaCle-6',
    'Fin-7',
  ];
  const broken = FIXTURE_CONFIG.replace(
    /<MDP>Demo-75e469<\/MDP>/,
    '<MDP a="1"><![CDATA[Cdata-pass-1]]><!--Comment-pass-2--></MDP>\n</Oops>',
  )
    .replace(/<MDP>Demo-9a2289<\/MDP>/, '<mdp>Avant-3<Apres-4</mdp><MDP><X>Imbrique-5</X></MDP>')
    .replace(/<APIKey_Google>[^<]*<\/APIKey_Google>/, '<APIKey_Google>AIzaCle-6</APIKey_Google>')
    .replace(/<\/Connexion>\s*$/, '<Tokens><Token><Valeur>Fin-7');

  it('GET /api/debug/xml-status shows no part of a password in CDATA, a comment, nested or unclosed', async () => {
    const { cookie } = await fresh(broken);
    const res = await status(cookie);
    expect(res.statusCode).toBe(200);
    const body = ZXmlStatusResponse.parse(res.json());
    expect(body.isValid).toBe(false);
    expect(body.problematicContent.map((l) => l.content).join('\n')).toContain('<MDP a="1">••••••••</MDP>');
    for (const s of SECRETS) expect(res.body).not.toContain(s);
    const repaired = await repair(cookie);
    for (const s of SECRETS) expect(repaired.body).not.toContain(s);
  });

  it('a < inside a password: neither the diagnostic nor the refused repair names what follows it', async () => {
    const { cookie } = await fresh(
      FIXTURE_CONFIG.replace(/<MDP>Demo-75e469<\/MDP>/, '<MDP>Av<Morceau>Apres</MDP>'),
    );
    const diagnostic = await status(cookie);
    expect(diagnostic.json<{ isValid: boolean }>().isValid).toBe(false);
    const repaired = await repair(cookie);
    expect(repaired.statusCode).toBe(422);
    expect(repaired.json<{ message: string }>().message).toContain('<••••••••>');
    for (const body of [diagnostic.body, repaired.body]) expect(body).not.toMatch(/Morceau|Apres/);
  });

  it('a save while the text is repaired: the repair starts again on the saved text, which it keeps', async () => {
    // Over OFFLOAD_MIN_BYTES, so that the repair goes to the pool.
    const broken = FIXTURE_CONFIG.replace(firstServeur, '<Serveur>Dupont & Fils</Serveur>').replace(
      '</Connexion>',
      `<!-- ${'remplissage '.repeat(50_000)} --></Connexion>`,
    );
    const { id } = await fresh(broken);
    let saves = 0;
    // The repair runs off the request thread: a save lands meanwhile, once.
    const racing = await testApp(ctx.db, {
      offload: watchedOffload(inlineOffload, async (taskName) => {
        if (taskName === 'debug.repair' && saves++ === 0) {
          const [row] = await ctx.db.query<{ version: number }>(
            'SELECT version FROM configurations WHERE installation_id = $1',
            [id],
          );
          const saved = broken.replace('<Connexion>', '<Connexion><!-- enregistré pendant la réparation -->');
          await ctx.db.query('UPDATE configurations SET text = $2, version = $3 WHERE installation_id = $1', [
            id,
            saved,
            (row?.version ?? 0) + 1,
          ]);
        }
      }),
    });
    try {
      const syncId = `DBG${counter}`;
      const res = await racing.inject({
        method: 'POST',
        url: '/api/debug/repair-xml',
        headers: { cookie: await signIn(racing, syncId) },
        payload: {},
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = ZRepairResponse.parse(res.json());
      expect(body).toMatchObject({ backupVersion: 2, version: 3 });
      const now = await stored(id);
      expect(now?.text).toContain('<!-- enregistré pendant la réparation -->');
      expect(now?.text).toContain('Dupont &amp; Fils');
      expect(saves).toBe(2);
    } finally {
      await racing.close();
    }
  });
});
