import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, useTestApp } from './helpers/app.ts';
import { findSecrets, SecretCollector } from './helpers/secret-capture.ts';

/**
 * The secrets scan itself (helpers/secret-capture.ts, scripts/scan-secrets.mjs): a planted secret
 * is found in an answer's body, header or a log line; the routes allowed to carry one are allowed
 * for that kind and place only; the placeholder is no finding; the step fails on a finding and on
 * an empty capture. The apps here use their own collector, so what they plant stays out of the
 * run's reports.
 */

const SCRIPT = fileURLToPath(new URL('../../../scripts/scan-secrets.mjs', import.meta.url));
const PLANTED = 'Canary-7f3a9c1e-planted';

describe('findSecrets', () => {
  const secrets = new Map([[PLANTED, 'client-id' as const]]);

  it('finds a planted secret and masks it in the excerpt', () => {
    const found = findSecrets(`{"message":"bad ${PLANTED} here"}`, secrets, {
      route: 'GET /api/user',
      where: 'answer body',
      status: 200,
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'client-id', route: 'GET /api/user', where: 'answer body' });
    expect(found[0]?.excerpt).toBe('{"message":"bad <secret> here"}');
  });

  it('allows a route only for its kind and place', () => {
    const config = new Map([[PLANTED, 'config-secret' as const]]);
    const at = (route: string, where: string) =>
      findSecrets(`<MDP>${PLANTED}</MDP>`, config, { route, where });
    expect(at('GET /api/connector/v1/configuration', 'answer body')).toEqual([]);
    expect(at('GET /api/connector/v1/configuration', 'log')).toHaveLength(1);
    expect(at('GET /api/user', 'answer body')).toHaveLength(1);
    const token = new Map([[PLANTED, 'connector-token' as const]]);
    expect(
      findSecrets(PLANTED, token, { route: 'GET /api/connector/v1/configuration', where: 'answer body' }),
    ).toHaveLength(1);
  });

  it('the placeholder is no secret', () => {
    expect(
      findSecrets(`<MDP>${SECRET_PLACEHOLDER}</MDP>`, secrets, { route: 'x', where: 'answer body' }),
    ).toEqual([]);
  });
});

describe('SecretCollector.reset (before each test file: the files of one process share it)', () => {
  it('forgets the secrets, findings and counts of the file before', () => {
    const collector = new SecretCollector();
    collector.register(PLANTED, 'client-id');
    collector.answer('GET /api/user', 200, {}, `{"id":"${PLANTED}"}`);
    collector.log(`{"msg":"${PLANTED}"}`);
    expect(collector.report('a.test.ts')).toMatchObject({ answers: 1, logLines: 1, secrets: 1 });
    expect(collector.findings).toHaveLength(2);

    collector.reset();
    expect(collector.report('b.test.ts')).toEqual({
      file: 'b.test.ts',
      answers: 0,
      logLines: 0,
      secrets: 0,
      findings: [],
    });
    // The first file's secret is not looked for in the next file's answers.
    collector.answer('GET /api/user', 200, {}, `{"id":"${PLANTED}"}`);
    expect(collector.findings).toEqual([]);
  });
});

describe('the collector on a real app', () => {
  const collector = new SecretCollector();

  const ctx = useTestApp({}, collector);

  it('sees a secret echoed in an answer and in the log lines', async () => {
    collector.register(PLANTED, 'connector-token');
    const res = await ctx.app.inject({ url: `/api/nope-${PLANTED}` });
    expect(res.statusCode).toBe(404);
    const where = collector.findings.map((f) => f.where).sort();
    expect(where).toContain('answer body');
    expect(where).toContain('log');
    expect(collector.answers).toBeGreaterThan(0);
    expect(collector.logLines).toBeGreaterThan(0);
  });

  it('a sign-in, the configuration and the connector read leave no finding of their own', async () => {
    const before = collector.findings.length;
    const { connectorToken } = await addInstallation(ctx.db, {
      syncId: 'SCAN01',
      clientId: 'Canary-client-9b1d',
    });
    collector.register('Canary-client-9b1d', 'client-id');
    collector.register(connectorToken, 'connector-token');
    for (const m of FIXTURE_CONFIG.matchAll(/<MDP>([^<]+)<\/MDP>/g))
      collector.register(m[1], 'config-secret');
    const cookie = await signIn(ctx.app, 'SCAN01', 'Canary-client-9b1d');
    collector.register(cookie.split('=')[1], 'session-token');
    for (const url of ['/api/user', '/api/config/sources', '/api/config/complement', '/api/dashboard']) {
      expect((await ctx.app.inject({ url, headers: { cookie } })).statusCode).toBe(200);
    }
    const read = await ctx.app.inject({
      url: '/api/connector/v1/configuration',
      headers: { authorization: `Bearer ${connectorToken}` },
    });
    expect(read.body).toContain('Demo-75e469');
    const head = await ctx.app.inject({
      method: 'HEAD',
      url: '/api/connector/v1/configuration',
      headers: { authorization: `Bearer ${connectorToken}` },
    });
    expect(head.statusCode).toBe(200);
    // A query value named like a secret is masked in the request log.
    await ctx.app.inject({ url: `/auth?clientId=Canary-client-9b1d&token=${connectorToken}` });
    expect(collector.findings.slice(before)).toEqual([]);
  });
});

describe('scripts/scan-secrets.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = () => spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
  const report = (findings: unknown[]) => ({
    file: 'x.test.ts',
    answers: 3,
    logLines: 2,
    secrets: 1,
    findings,
  });

  it('fails when nothing was captured', () => {
    const res = run();
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('nothing captured');
  });

  it('passes on clean reports and fails on a planted finding, naming it', () => {
    writeFileSync(join(dir, 'a.json'), JSON.stringify(report([])));
    let res = run();
    expect(res.status, res.stdout).toBe(0);
    expect(res.stdout).toContain('3 answers and 2 log lines');
    writeFileSync(
      join(dir, 'b.json'),
      JSON.stringify(
        report([{ kind: 'client-id', where: 'log', route: 'POST /api/login', excerpt: 'x <secret> y' }]),
      ),
    );
    res = run();
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('client-id in log of POST /api/login');
  });
});
