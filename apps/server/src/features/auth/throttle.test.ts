import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, login, testApp } from '../../../test/helpers/app.ts';
import { openTestDb, openTestDbPair, usingPostgres } from '../../../test/helpers/db.ts';
import type { Db } from '../../db/types.ts';
import { capture } from '../../../test/helpers/secret-capture.ts';
import { DEVICE_COOKIE_LIFETIME_MS } from '../../security/device-cookie.ts';
import { addressKey, FAILURE_WINDOW_MS, SYNC_SPACING_MS, throttleKeys } from './throttle.ts';

let db: Db;
let app: FastifyInstance;
let clock = new Date('2026-02-01T09:00:00Z');
/**
 * One trusted proxy (the test client, 127.0.0.1): the client address is the last one of
 * X-Forwarded-For, what that proxy appended; whatever a client wrote before it is not believed.
 */
const from = (address: string) => ({ 'x-forwarded-for': address });

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db, { now: () => clock, trustProxy: 1 });
  for (const syncId of ['THRO001', 'THRO002', 'THRO003', 'THRO004', 'THRO005', 'THRO006', 'THRO007'])
    await addInstallation(db, { syncId });
  for (const syncId of ['DEV001', 'DEV002', 'DEV003', 'DEV004']) await addInstallation(db, { syncId });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
/** A new window for every test: nothing counted before it matters. */
const nextWindow = () => advance(2 * FAILURE_WINDOW_MS);
const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode);
const countOf = (list: number[], status: number) => list.filter((s) => s === status).length;

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:0207', '192.0.2.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['::1', '::/64'],
    ['not an address', 'not an address'],
  ])('%s → %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('keys the pair and the address by the /64', () => {
    expect(throttleKeys('ABC', '2001:db8:1:2::99')).toEqual([
      'addr:2001:db8:1:2::/64',
      'pair:ABC@2001:db8:1:2::/64',
      'sync:ABC',
    ]);
  });

  it('a known device is counted under its device cookie alone', () => {
    expect(throttleKeys('ABC', '2001:db8:1:2::99', 'n0nce')).toEqual(['dev:n0nce']);
  });
});

describe('login throttling', () => {
  it('sync id + address: the 6th attempt gets 429 with Retry-After, even with the right client id', async () => {
    nextWindow();
    for (let i = 0; i < 5; i += 1) {
      advance(1000);
      expect((await login(app, 'THRO001', 'wrong', from('10.0.0.1'))).statusCode).toBe(401);
    }
    advance(1000);
    const blocked = await login(app, 'THRO001', 'client-secret', from('10.0.0.1'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<{ message: string }>().message).toBe(
      'Trop de tentatives de connexion échouées. Réessayez dans 15 minutes.',
    );
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another installation from another address is not affected.
    expect((await login(app, 'THRO002', 'client-secret', from('10.0.1.1'))).statusCode).toBe(200);
  });

  it('the owner at another address is slowed at most 30 s, not locked out, while the attacker stays locked', async () => {
    // Continues the previous test: THRO001 has 5 failures from 10.0.0.1.
    const first = await login(app, 'THRO001', 'client-secret', from('10.0.0.200'));
    expect(first.statusCode).toBe(429);
    expect(first.json<{ message: string }>().message).toMatch(
      /^Trop de tentatives de connexion échouées\. Réessayez dans \d+ secondes?\.$/,
    );
    expect(Number(first.headers['retry-after'])).toBeLessThanOrEqual(SYNC_SPACING_MS / 1000);
    advance(Number(first.headers['retry-after']) * 1000);
    expect((await login(app, 'THRO001', 'client-secret', from('10.0.0.200'))).statusCode).toBe(200);
    expect((await login(app, 'THRO001', 'client-secret', from('10.0.0.1'))).statusCode).toBe(429);
  });

  it('lets the pair in again once its window is over', async () => {
    advance(FAILURE_WINDOW_MS);
    expect((await login(app, 'THRO001', 'client-secret', from('10.0.0.1'))).statusCode).toBe(200);
  });

  it('many addresses hammering one sync id: 5 guesses at once, then one every 30 s', async () => {
    nextWindow();
    const burst = statuses(
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(app, 'THRO003', 'wrong', from(`198.18.0.${i + 1}`))),
      ),
    );
    expect(countOf(burst, 401)).toBe(5);
    expect(countOf(burst, 429)).toBe(15);
    advance(SYNC_SPACING_MS);
    expect((await login(app, 'THRO003', 'wrong', from('198.18.1.1'))).statusCode).toBe(401);
    const slowed = await login(app, 'THRO003', 'wrong', from('198.18.1.2'));
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json<{ message: string }>().message).toBe(
      'Trop de tentatives de connexion échouées. Réessayez dans 30 secondes.',
    );
    expect(slowed.headers['retry-after']).toBe('30');
    // The refused attempts were taken back off: the sync id counts 6 guesses, not 22.
    const [row] = await db.query<{ attempts: number }>(
      `SELECT attempts FROM login_throttle WHERE key = 'sync:THRO003'`,
    );
    expect(row?.attempts).toBe(6);
  });

  it('20 parallel wrong guesses from one address count 20: 5 get 401, 15 get 429', async () => {
    nextWindow();
    const results = statuses(
      await Promise.all(Array.from({ length: 20 }, () => login(app, 'THRO004', 'wrong', from('192.0.2.40')))),
    );
    expect(countOf(results, 401)).toBe(5);
    expect(countOf(results, 429)).toBe(15);
  });

  it('the right client id among parallel wrong ones: at most 5 checked, it is not counted when it gets in', async () => {
    nextWindow();
    const attempts = Array.from({ length: 12 }, (_, i) =>
      login(app, 'THRO005', i === 3 ? 'client-secret' : 'wrong', from('192.0.2.50')),
    );
    const results = statuses(await Promise.all(attempts));
    const checked = countOf(results, 401) + countOf(results, 200);
    expect(countOf(results, 401)).toBeLessThanOrEqual(5);
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(6);
    expect(countOf(results, 429)).toBe(12 - checked);
    const [row] = await db.query<{ attempts: number }>(
      `SELECT attempts FROM login_throttle WHERE key = 'pair:THRO005@192.0.2.50'`,
    );
    expect(row?.attempts).toBe(countOf(results, 401));
  });

  it('per address: 10 failures on any sync ids block that address, not the others', async () => {
    nextWindow();
    for (let i = 0; i < 10; i += 1) {
      expect((await login(app, `GUESS${i}`, 'x', from('192.0.2.7'))).statusCode).toBe(401);
    }
    const blocked = await login(app, 'THRO002', 'client-secret', from('192.0.2.7'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await login(app, 'THRO002', 'client-secret', from('192.0.2.8'))).statusCode).toBe(200);
  });

  it('an address written by the client before the proxy’s does not escape the count', async () => {
    nextWindow();
    for (let i = 0; i < 10; i += 1) {
      const forged = from(`203.0.113.${i}, 10.9.${i}.1, 198.51.100.60`);
      expect((await login(app, `FORGE${i}`, 'x', forged)).statusCode).toBe(401);
    }
    const blocked = await login(app, 'THRO002', 'client-secret', from('1.2.3.4, 198.51.100.60'));
    expect(blocked.statusCode).toBe(429);
  });

  it('IPv6: every address of one /64 is one client; another /64 is not affected', async () => {
    nextWindow();
    for (let i = 1; i <= 10; i += 1) {
      const address = `2001:db8:77:1:${i.toString(16)}:${((i * 7919) % 0x10000).toString(16)}::1`;
      expect((await login(app, `SIX${i}`, 'x', from(address))).statusCode).toBe(401);
    }
    expect((await login(app, 'THRO002', 'client-secret', from('2001:db8:77:1::abcd'))).statusCode).toBe(429);
    expect((await login(app, 'THRO002', 'client-secret', from('::ffff:192.0.2.99'))).statusCode).toBe(200);
    expect((await login(app, 'THRO002', 'client-secret', from('2001:db8:77:2::1'))).statusCode).toBe(200);
  });

  it('successful logins do not count', async () => {
    nextWindow();
    for (let i = 0; i < 8; i += 1) {
      expect((await login(app, 'THRO006', 'client-secret', from('198.51.100.1'))).statusCode).toBe(200);
    }
    for (let i = 0; i < 4; i += 1) {
      expect((await login(app, 'THRO006', 'bad', from('198.51.100.1'))).statusCode).toBe(401);
    }
    expect((await login(app, 'THRO006', 'client-secret', from('198.51.100.1'))).statusCode).toBe(200);
    const rows = await db.query<{ key: string; attempts: number }>(
      `SELECT key, attempts FROM login_throttle WHERE key LIKE '%198.51.100.1' OR key = 'sync:THRO006'
       ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'addr:198.51.100.1', attempts: 4 },
      { key: 'pair:THRO006@198.51.100.1', attempts: 4 },
      { key: 'sync:THRO006', attempts: 4 },
    ]);
  });
});

/** The device cookie a sign-in answer sets for `syncId` (registered for the secrets scan). */
function deviceCookieOf(res: { cookies: { name: string; value: string }[] }, syncId: string): string {
  const value = res.cookies.find((c) => c.name === `synchro_device_${syncId}`)?.value;
  if (!value) throw new Error(`no device cookie for ${syncId}`);
  capture.register(value, 'session-token');
  return value;
}
const withDevice = (syncId: string, value: string, address: string) => ({
  ...from(address),
  cookie: `synchro_device_${syncId}=${value}`,
});
async function throttleRows(pattern: string) {
  return db.query<{ key: string; attempts: number }>(
    'SELECT key, attempts FROM login_throttle WHERE key LIKE $1 AND attempts > 0 ORDER BY key',
    [pattern],
  );
}

describe('device cookies (OWASP): the owner’s known browser is counted apart', () => {
  it('an attacker rotating X-Forwarded-For keeps untrusted sign-ins refused for 25 minutes, while the owner with a device cookie signs in every time', async () => {
    nextWindow();
    const owner = '203.0.114.10';
    // The owner signed in from this browser before the attack: it holds a device cookie.
    const before = await login(app, 'DEV001', 'client-secret', from(owner));
    expect(before.statusCode).toBe(200);
    let device = deviceCookieOf(before, 'DEV001');

    // The attacker guesses as soon as the sync id lets a guess through, five per address (under
    // the pair's lock), then takes a new address: about 7 addresses per 15 minutes.
    let address = 0;
    let onAddress = 0;
    let guesses = 0;
    const attack = async () => {
      for (;;) {
        if (onAddress === 5) [address, onAddress] = [address + 1, 0];
        const res = await login(app, 'DEV001', `guess-${guesses}`, from(`198.51.100.${address + 1}`));
        if (res.statusCode === 429) return;
        expect(res.statusCode).toBe(401);
        [onAddress, guesses] = [onAddress + 1, guesses + 1];
      }
    };
    const untrusted: number[] = [];
    const known: number[] = [];
    for (let step = 0; step < 51; step += 1) {
      await attack();
      if (step % 3 === 1) {
        // The owner, at the same moment: from a new browser (no device cookie)…
        untrusted.push((await login(app, 'DEV001', 'client-secret', from(owner))).statusCode);
        // …and from the known one.
        const res = await login(app, 'DEV001', 'client-secret', withDevice('DEV001', device, owner));
        known.push(res.statusCode);
        if (res.statusCode === 200) device = deviceCookieOf(res, 'DEV001');
      }
      advance(SYNC_SPACING_MS);
    }
    expect(untrusted).toEqual(Array<number>(17).fill(429));
    expect(known).toEqual(Array<number>(17).fill(200));
    // The attack was the one of the finding: some 60 guesses from about 7 addresses a quarter.
    expect(guesses).toBeGreaterThanOrEqual(55);
    expect(address + 1).toBeLessThanOrEqual(14);
    // The owner's sign-ins were counted under no untrusted key (and, successful, under none).
    expect(await throttleRows(`%@${owner}`)).toEqual([]);
    expect(await throttleRows('dev:%')).toEqual([]);
  });

  it('a device cookie that fails too often is locked itself, not the browser’s other ways in', async () => {
    nextWindow();
    const device = deviceCookieOf(
      await login(app, 'DEV002', 'client-secret', from('203.0.114.20')),
      'DEV002',
    );
    const headers = withDevice('DEV002', device, '203.0.114.20');
    for (let i = 0; i < 5; i += 1) {
      advance(1000);
      expect((await login(app, 'DEV002', 'wrong', headers)).statusCode).toBe(401);
    }
    const locked = await login(app, 'DEV002', 'client-secret', headers);
    expect(locked.statusCode).toBe(429);
    expect(locked.json<{ message: string }>().message).toBe(
      'Trop de tentatives de connexion échouées. Réessayez dans 15 minutes.',
    );
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Its failures were counted under the device cookie alone: the same address without it is
    // an untrusted client with a clean record.
    expect((await throttleRows('%DEV002%')).map((r) => r.key)).toEqual([]);
    expect(await throttleRows('dev:%')).toEqual([
      { key: expect.stringMatching(/^dev:/) as string, attempts: 5 },
    ]);
    const other = await login(app, 'DEV002', 'client-secret', from('203.0.114.20'));
    expect(other.statusCode).toBe(200);
    // The audit tells the known device's sign-ins from the others.
    const audits = await db.query<{ action: string; details: Record<string, unknown> | null }>(
      `SELECT action, details FROM audit_log WHERE sync_id = 'DEV002' AND action LIKE 'login.%' ORDER BY id`,
    );
    expect(audits.map((a) => [a.action, a.details?.knownDevice ?? false])).toEqual([
      ['login.success', false],
      ...Array.from({ length: 5 }, () => ['login.failure', true]),
      ['login.throttled', true],
      ['login.success', false],
    ]);
    // Once its window is over, the device cookie works again.
    advance(FAILURE_WINDOW_MS);
    expect((await login(app, 'DEV002', 'client-secret', headers)).statusCode).toBe(200);
  });

  it('a device cookie of another installation, tampered, forged or expired makes an untrusted client', async () => {
    nextWindow();
    const good = deviceCookieOf(await login(app, 'DEV003', 'client-secret', from('203.0.114.30')), 'DEV003');
    const [syncId, nonce, expiry, mac] = good.split('.') as [string, string, string, string];
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const cases: [string, string, string][] = [
      ['another installation’s, under this one’s name', 'DEV004', good],
      ['its sync id changed', 'DEV004', [`DEV004`, nonce, expiry, mac].join('.')],
      ['its expiry moved', 'DEV003', [syncId, nonce, String(Number(expiry) + 1), mac].join('.')],
      ['its signature changed', 'DEV003', [syncId, nonce, expiry, flipped].join('.')],
      ['no signature', 'DEV003', [syncId, nonce, expiry].join('.')],
      ['not one at all', 'DEV003', 'x'.repeat(300)],
    ];
    for (const [what, target, value] of cases) {
      nextWindow();
      const res = await login(app, target, 'wrong', withDevice(target, value, '203.0.114.31'));
      expect(res.statusCode, what).toBe(401);
      expect(await throttleRows('dev:%'), what).toEqual([]);
      expect(await throttleRows(`pair:${target}@203.0.114.31`), what).toEqual([
        { key: `pair:${target}@203.0.114.31`, attempts: 1 },
      ]);
    }
    // Expired: the same cookie after its 90 days.
    nextWindow();
    advance(DEVICE_COOKIE_LIFETIME_MS);
    expect((await login(app, 'DEV003', 'wrong', withDevice('DEV003', good, '203.0.114.32'))).statusCode).toBe(
      401,
    );
    expect(await throttleRows('dev:%')).toEqual([]);
    expect(await throttleRows('pair:DEV003@203.0.114.32')).toHaveLength(1);
  });
});

describe.runIf(usingPostgres())('two server processes on one PostgreSQL', () => {
  it('20 parallel guesses split over both count 20: 5 get 401', async () => {
    const [first, second] = await openTestDbPair();
    const now = () => clock;
    const a = await testApp(first, { now, trustProxy: 1 });
    const b = await testApp(second, { now, trustProxy: 1 });
    try {
      await addInstallation(first, { syncId: 'THRO007' });
      nextWindow();
      const results = statuses(
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => login(i % 2 ? a : b, 'THRO007', 'wrong', from('192.0.2.70'))),
        ),
      );
      expect(countOf(results, 401)).toBe(5);
      expect(countOf(results, 429)).toBe(15);
    } finally {
      await a.close();
      await b.close();
      await second.close();
      await first.close();
    }
  });
});
