import {
  CONFIG_HISTORY_MESSAGES,
  CONFLICT_MESSAGE,
  ZConfigChanges,
  ZConfigHistoryPage,
  ZConfigRawDiff,
  ZRestoreResponse,
  SECRET_CHANGED_MASKS,
  SECRET_PLACEHOLDER,
  type TSourcesView,
} from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { addInstallation, signIn, useTestApp } from '../../../test/helpers/app.ts';
import { connectorCall } from '../../../test/helpers/connector.ts';
import { getConfiguration } from '../../domain/configurations.ts';

const ctx = useTestApp({ versionRetention: { keep: 3, maxAgeDays: 90, maxBytes: 64 * 1024 * 1024 } });

async function setup(syncId: string) {
  const { installation, connectorToken } = await addInstallation(ctx.db, { syncId });
  const cookie = await signIn(ctx.app, syncId);
  return { id: installation.id, token: connectorToken, cookie };
}

const get = (cookie: string, url: string) => ctx.app.inject({ url, headers: { cookie } });

async function sourcesView(cookie: string): Promise<{ version: number; data: TSourcesView }> {
  return (await get(cookie, '/api/config/sources')).json();
}

async function saveSources(cookie: string, change: (s: TSourcesView['sources']) => void, ifMatch?: number) {
  const { version, data } = await sourcesView(cookie);
  change(data.sources);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/database/sources',
    headers: { cookie, 'if-match': `"${ifMatch ?? version}"` },
    payload: { sources: data.sources },
  });
}

const history = async (cookie: string, query = '') =>
  ZConfigHistoryPage.parse((await get(cookie, `/api/configuration-history${query}`)).json());

const patch = (token: string, n: number) =>
  connectorCall(ctx.app, 'PATCH', '/configuration', token, {
    DerSynchro: { DateHeure: `2026112610${String(n).padStart(2, '0')}00000`, NbEnreg: String(n) },
    Sources: [{ index: 1, Status: String(n % 2), StatusLibelle: `Cnx ${n}` }],
  });

describe('configuration history', () => {
  it('lists a save with its author, address, section and summary; the connector folded, or one by one', async () => {
    const a = await setup('HISTA01');
    const res = await saveSources(a.cookie, (s) => {
      s[0]!.Serveur = 'SRV-NOUVEAU';
      s[0]!.MDP = 'Secret-Nouveau';
    });
    expect(res.statusCode, res.body).toBe(200);
    for (let n = 1; n <= 3; n++) expect((await patch(a.token, n)).statusCode).toBe(200);
    const page = await history(a.cookie);
    expect(page.currentVersion).toBe(5);
    expect(page.retention).toEqual({ keep: 3, maxAgeDays: 90, maxBytes: 64 * 1024 * 1024 });
    const [top, first] = page.versions;
    expect(top).toMatchObject({
      version: 2,
      author: 'user',
      address: '127.0.0.1',
      sections: ['sources'],
      summary: ['Base de données source\u00a0: connexion 1 modifiée'],
      current: false,
      restorable: true,
    });
    expect(top!.connectorAfter?.count).toBe(3);
    expect(first).toMatchObject({ version: 1, author: 'admin', connectorAfter: null });
    const all = await history(a.cookie, '?connector=1');
    expect(all.versions.map((v) => [v.version, v.author])).toEqual([
      [5, 'connector'],
      [4, 'connector'],
      [3, 'connector'],
      [2, 'user'],
      [1, 'admin'],
    ]);
    expect(all.versions[0]).toMatchObject({ current: true, restorable: false });
    expect(all.versions[0]!.summary).toEqual(['Dernière synchronisation', 'États des connexions']);
  });

  it('pages with the lists’ signed cursors', async () => {
    const a = await setup('HISTA02');
    for (let n = 1; n <= 4; n++) await patch(a.token, n);
    const p1 = await history(a.cookie, '?connector=1&pageSize=2');
    expect(p1.versions.map((v) => v.version)).toEqual([5, 4]);
    const p2 = await history(a.cookie, `?connector=1&pageSize=2&page=2&cursor=${p1.pagination.nextCursor}`);
    expect(p2.versions.map((v) => v.version)).toEqual([3, 2]);
    const back = await history(
      a.cookie,
      `?connector=1&pageSize=2&page=1&cursor=${p2.pagination.previousCursor}`,
    );
    expect(back.versions.map((v) => v.version)).toEqual([5, 4]);
    const tampered = await get(
      a.cookie,
      `/api/configuration-history?connector=1&pageSize=2&page=2&cursor=x${p1.pagination.nextCursor}`,
    );
    expect(tampered.statusCode).toBe(400);
  });

  it('changes of a version: screen labels, decoded values, a secret only as modifié; raw diff masked', async () => {
    const a = await setup('HISTA03');
    const res = await saveSources(a.cookie, (s) => {
      s[0]!.Serveur = 'SRV-Été';
      s[0]!.MDP = 'Nouveau-Secret-42';
    });
    expect(res.statusCode, res.body).toBe(200);
    const changes = ZConfigChanges.parse(
      (await get(a.cookie, '/api/configuration-history/2/changes')).json(),
    );
    expect(changes.otherVersion).toBe(1);
    expect(changes.sections.map((s) => s.section)).toEqual(['sources']);
    expect(changes.sections[0]!.fields).toEqual([
      {
        label: 'Connexion 1 — Serveur',
        before: 'localhost\\ebp',
        after: 'SRV-Été',
        secret: false,
        changed: true,
      },
      { label: 'Connexion 1 — Mot de passe', before: null, after: null, secret: true, changed: true },
    ]);
    const raw = await get(a.cookie, '/api/configuration-history/2/raw?section=sources');
    const diff = ZConfigRawDiff.parse(raw.json());
    const added = diff.lines.filter((l) => 'op' in l && l.op === '+').map((l) => ('text' in l ? l.text : ''));
    expect(added.join('\n')).toContain('SRV-Été');
    for (const body of [raw.body, JSON.stringify(changes)]) {
      expect(body).not.toContain('Nouveau-Secret-42');
      expect(body).not.toContain('Demo-75e469');
    }
    expect(raw.body).toContain('••••••••');
    // Against the current version: nothing changed since.
    const now = ZConfigChanges.parse(
      (await get(a.cookie, '/api/configuration-history/2/changes?against=current')).json(),
    );
    expect(now.sections).toEqual([]);
    const older = ZConfigChanges.parse(
      (await get(a.cookie, '/api/configuration-history/1/changes?against=current')).json(),
    );
    expect(older.sections[0]!.fields[0]).toMatchObject({ before: 'localhost\\ebp', after: 'SRV-Été' });
  });

  it('raw diff: a changed password shows as a changed line, masked by its side; an unchanged one as unchanged; neither sent', async () => {
    const a = await setup('HISTA10');
    const rawOf = async (version: number, against = 'previous') => {
      const res = await get(
        a.cookie,
        `/api/configuration-history/${version}/raw?section=sources&against=${against}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      for (const secret of ['Demo-75e469', 'Nouveau-Secret-77']) expect(res.body).not.toContain(secret);
      return ZConfigRawDiff.parse(res.json()).lines.flatMap((l) =>
        'op' in l ? [`${l.op}${l.text.trim()}`] : [],
      );
    };
    // Version 2: « Lecture seule » changes, the password (the line above) does not.
    expect((await saveSources(a.cookie, (s) => void (s[0]!.Lecture_Seule = true))).statusCode).toBe(200);
    const userOnly = await rawOf(2);
    expect(userOnly).toContain('-<Lecture_Seule>0</Lecture_Seule>');
    expect(userOnly).toContain(` <MDP>${SECRET_PLACEHOLDER}</MDP>`);
    expect(userOnly.join('\n')).not.toMatch(/ancienne valeur|nouvelle valeur/);
    // Version 3: only the password changes.
    expect((await saveSources(a.cookie, (s) => void (s[0]!.MDP = 'Nouveau-Secret-77'))).statusCode).toBe(200);
    const changed = ZConfigChanges.parse(
      (await get(a.cookie, '/api/configuration-history/3/changes')).json(),
    );
    expect(changed.sections[0]!.fields).toEqual([
      { label: 'Connexion 1 — Mot de passe', before: null, after: null, secret: true, changed: true },
    ]);
    const passwordOnly = await rawOf(3);
    expect(passwordOnly.filter((l) => !l.startsWith(' '))).toEqual([
      `-<MDP>${SECRET_CHANGED_MASKS.before}</MDP>`,
      `+<MDP>${SECRET_CHANGED_MASKS.after}</MDP>`,
    ]);
    // Version 2 against the current one: the same change; version 3 against the current one: none.
    expect((await rawOf(2, 'current')).filter((l) => !l.startsWith(' '))).toEqual(
      passwordOnly.filter((l) => !l.startsWith(' ')),
    );
    expect(await rawOf(3, 'current')).toEqual([]);
  });

  it('restores a section as a new « Restauration » version: the old secret back, the connector’s nodes as now', async () => {
    const a = await setup('HISTA04');
    const before = await getConfiguration(ctx.db, a.id);
    await saveSources(a.cookie, (s) => {
      s[0]!.Serveur = 'SRV-2';
      s[0]!.MDP = 'Autre-Secret';
    });
    await patch(a.token, 7);
    const current = await getConfiguration(ctx.db, a.id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/configuration-history/1/restore',
      headers: { cookie: a.cookie, 'if-match': `"${current.version}"` },
      payload: { sections: ['sources'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZRestoreResponse.parse(res.json());
    expect(body).toEqual({ message: 'La configuration a été restaurée.', version: 4, sections: ['sources'] });
    const after = await getConfiguration(ctx.db, a.id);
    expect(after.text).toContain('Demo-75e469');
    expect(after.text).not.toContain('Autre-Secret');
    expect(after.text).toContain('<StatusLibelle>Cnx 7</StatusLibelle>');
    expect(after.text).toContain('<NbEnreg>7</NbEnreg>');
    expect((await sourcesView(a.cookie)).data.sources[0]!.Serveur).toBe('localhost\\ebp');
    expect(after.text.replace(/<Sources>[\s\S]*<\/Sources>/, '')).toBe(
      current.text.replace(/<Sources>[\s\S]*<\/Sources>/, ''),
    );
    expect(before.text).not.toBe(after.text);
    const top = (await history(a.cookie)).versions[0]!;
    expect(top).toMatchObject({ version: 4, author: 'restore', sections: ['sources'], current: true });
    const [audit] = await ctx.db.query<{ action: string; outcome: string }>(
      `SELECT action, outcome FROM audit_log WHERE installation_id = $1 ORDER BY id DESC LIMIT 1`,
      [a.id],
    );
    expect(audit).toEqual({ action: 'config.restore', outcome: 'success' });
  });

  it('a restore racing a connector PATCH: 409 in French, nothing written, the failure in the journal', async () => {
    const a = await setup('HISTA05');
    await saveSources(a.cookie, (s) => {
      s[0]!.Serveur = 'SRV-3';
      s[0]!.MDP = 'Secret-3';
    });
    const seen = (await getConfiguration(ctx.db, a.id)).version;
    await patch(a.token, 9);
    const after = await getConfiguration(ctx.db, a.id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/configuration-history/1/restore',
      headers: { cookie: a.cookie, 'if-match': `"${seen}"` },
      payload: {},
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CONFLICT_MESSAGE, code: 'conflict' });
    expect(await getConfiguration(ctx.db, a.id)).toEqual(after);
    const [audit] = await ctx.db.query<{ action: string; outcome: string }>(
      `SELECT action, outcome FROM audit_log WHERE installation_id = $1 ORDER BY id DESC LIMIT 1`,
      [a.id],
    );
    expect(audit).toEqual({ action: 'config.restore', outcome: 'failure' });
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/configuration-history/1/restore',
      headers: { cookie: a.cookie },
      payload: {},
    });
    expect(missing.statusCode).toBe(428);
    const pruned = await ctx.app.inject({
      method: 'POST',
      url: '/api/configuration-history/999/restore',
      headers: { cookie: a.cookie, 'if-match': `"${after.version}"` },
      payload: {},
    });
    expect(pruned.statusCode).toBe(404);
  });

  it('a connector version is not restored, even with the text a later save kept as its backup', async () => {
    const a = await setup('HISTA09');
    await patch(a.token, 1);
    const connectorVersion = (await getConfiguration(ctx.db, a.id)).version;
    await saveSources(a.cookie, (s) => {
      s[0]!.Serveur = 'SRV-9';
    });
    const before = await getConfiguration(ctx.db, a.id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/configuration-history/${connectorVersion}/restore`,
      headers: { cookie: a.cookie, 'if-match': `"${before.version}"` },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({
      message: CONFIG_HISTORY_MESSAGES.connectorNotRestorable,
      code: 'not-restorable',
    });
    expect(await getConfiguration(ctx.db, a.id)).toEqual(before);
  });

  it('a save from a screen opened before 60 connector writes and the pruning of its version’s text: accepted; the same section changed meanwhile: 409', async () => {
    const a = await setup('HISTA06');
    const opened = await sourcesView(a.cookie);
    await saveSources(a.cookie, () => {}); // nothing changes: no version
    for (let n = 1; n <= 60; n++) await patch(a.token, n);
    // Another section saved meanwhile, three times (keep 3: the opened version's text goes).
    for (let n = 1; n <= 3; n++) {
      const complement = (await get(a.cookie, '/api/config/complement')).json<{
        version: number;
        data: Record<string, unknown>;
      }>();
      const other = await ctx.app.inject({
        method: 'POST',
        url: '/api/database/complement',
        headers: { cookie: a.cookie, 'if-match': `"${complement.version}"` },
        payload: { ...complement.data, scriptComplementaire: `echo ${n}` },
      });
      expect(other.statusCode, other.body).toBe(200);
    }
    const [row] = await ctx.db.query<{ text: string | null }>(
      'SELECT text FROM configuration_versions WHERE installation_id = $1 AND version = $2',
      [a.id, opened.version],
    );
    expect(row!.text).toBeNull();
    const ok = await saveSources(
      a.cookie,
      (s) => Object.assign(s[0]!, { Serveur: 'SRV-TARD', MDP: 'S1' }),
      opened.version,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const late = await saveSources(
      a.cookie,
      (s) => Object.assign(s[0]!, { Serveur: 'SRV-PERDU', MDP: 'S2' }),
      opened.version,
    );
    expect(late.statusCode).toBe(409);
    expect((await sourcesView(a.cookie)).data.sources[0]!.Serveur).toBe('SRV-TARD');
  });
});
