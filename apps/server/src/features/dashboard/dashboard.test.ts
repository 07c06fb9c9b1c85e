import { ZDashboardView, ZUser, type TDashboardView } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInstallation,
  FIXTURE_CONFIG,
  login,
  sessionCookie,
  signIn,
  testApp,
} from '../../../test/helpers/app.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import type { Db } from '../../db/types.ts';
import { installationZone } from '../../domain/time-zone.ts';
import { authorisedTerminalsOf, automateStateOf, isStale, softwareNameOf } from './service.ts';

let db: Db;
let app: FastifyInstance;
let clock = new Date('2025-03-10T12:00:00Z');

const withPlanifications = (inner: string) =>
  FIXTURE_CONFIG.replace(
    /<Planifications>[\s\S]*?<\/Planifications>/,
    `<Planifications>${inner}</Planifications>`,
  );
const planning = (jour: number, heure: string, ordre: string) =>
  `<Planning><Jour>${jour}</Jour><Heure>${heure}</Heure><Ordre>${ordre}</Ordre></Planning>`;

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db, { now: () => clock });
  await addInstallation(db, { syncId: 'DASH001' });
  await addInstallation(db, {
    syncId: 'DASH002',
    premium: false,
    options: '',
    software: '',
    configText: withPlanifications(
      '<FuseauHoraire>America/New_York</FuseauHoraire>' +
        planning(8, '06:00', 'C') +
        planning(1, '12:00', 'R') +
        planning(2, '12:15', 'R') +
        planning(8, '18:00', 'I'),
    ),
  });
  await addInstallation(db, { syncId: 'BROKEN1', configText: '<Connexion><Info>' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

async function dashboard(syncId: string): Promise<TDashboardView> {
  const cookie = await signIn(app, syncId);
  const res = await app.inject({ url: '/api/dashboard', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ZDashboardView.parse(res.json());
}

describe('GET /api/dashboard on the fixture', () => {
  it('reads every field of the Général screen', async () => {
    const view = await dashboard('DASH001');
    expect(view).toMatchObject({
      syncId: 'DASH001',
      softwareName: 'EBP GesCom Open Line',
      premium: true,
      connectorVersion: null,
      automate: { state: 'installed', label: 'Version : 6.11.23.9' },
      // DateMAJConfig 20250305093300664, Paris winter time.
      configUpdatedAt: '2025-03-05T08:33:00.664Z',
      terminals: { authorised: 25, declared: 8 },
      planningCounts: { C: 0, R: 0, I: 0 },
      googleKeysRemaining: 'NC',
      displayTimeZone: { zone: 'Europe/Paris', offsetMinutes: 60 },
      configVersion: 1,
    });
    expect(view.lastSync).toEqual({
      at: '2025-03-09T07:09:52.542Z',
      type: 'Complète',
      duration: '00:04:11',
      durationAlert: false,
      records: 1838,
      speed: 5927,
      volume: '3,721 Mo',
      volumeAlert: false,
      stale: false,
    });
  });

  it('lists the configured source with its provider and status', async () => {
    const view = await dashboard('DASH001');
    expect(view.sources).toEqual([
      { position: 1, provider: 'SQLOLEDB', status: 1, statusLabel: 'Ok : SQL', failed: false },
    ]);
  });

  it('marks the last sync stale after 72 hours, not on the same day', async () => {
    clock = new Date('2025-03-12T08:00:00Z'); // 72 h 50 min later
    expect((await dashboard('DASH001')).lastSync.stale).toBe(true);
    clock = new Date('2025-03-12T06:00:00Z'); // 70 h 50 min later
    expect((await dashboard('DASH001')).lastSync.stale).toBe(false);
  });

  it('counts schedules, reads the zone of Planifications and falls back on the generic software name', async () => {
    clock = new Date('2025-03-10T12:00:00Z');
    const view = await dashboard('DASH002');
    expect(view.planningCounts).toEqual({ C: 1, R: 2, I: 1 });
    expect(view.displayTimeZone).toEqual({ zone: 'America/New_York', offsetMinutes: -240 });
    // 2025-03-09 08:09:52 in New York (EDT since 02:00 that day) is 12:09:52 UTC.
    expect(view.lastSync.at).toBe('2025-03-09T12:09:52.542Z');
    expect(view.softwareName).toBe('votre ERP');
    expect(view.premium).toBe(false);
    expect(view.terminals.authorised).toBeNull();
  });

  it('answers 422 with a French message when the stored configuration cannot be read', async () => {
    const cookie = await signIn(app, 'BROKEN1');
    const res = await app.inject({ url: '/api/dashboard', headers: { cookie } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'unreadable-configuration' });
    expect(res.json<{ message: string }>().message).toMatch(
      /^La configuration enregistrée est illisible .*Ouvrez l'écran Diagnostic/,
    );
    // /api/user still answers, with no configuration text rather than an unredacted one.
    const user = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(user.statusCode).toBe(200);
    expect(user.json<{ ConfigConnecteur: string }>().ConfigConnecteur).toBe('');
  });
});

describe('/api/user planning counts', () => {
  it('come from the configuration schedules', async () => {
    const cookie = await signIn(app, 'DASH002');
    const res = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(res.json<{ planningCounts: unknown }>().planningCounts).toEqual({ C: 1, R: 2, I: 1 });
  });
});

describe('configuration cache', () => {
  it('a new stored version is seen at once by /api/user and /api/dashboard', async () => {
    await addInstallation(db, { syncId: 'CACHE01' });
    const cookie = await signIn(app, 'CACHE01');
    const before = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(before.json<{ configVersion: number }>().configVersion).toBe(1);
    // Another process (or the connector) stores version 2.
    await db.query(
      `UPDATE configurations SET version = 2, text = $1
       WHERE installation_id = (SELECT id FROM installations WHERE sync_id = 'CACHE01')`,
      [withPlanifications(planning(8, '06:00', 'C'))],
    );
    const after = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(after.json()).toMatchObject({ configVersion: 2, planningCounts: { C: 1, R: 0, I: 0 } });
    const dash = await app.inject({ url: '/api/dashboard', headers: { cookie } });
    expect(dash.json()).toMatchObject({ configVersion: 2, planningCounts: { C: 1, R: 0, I: 0 } });
  });

  it('the prebuilt /api/user answer is the bytes and headers fastify gives the same ZUser object', async () => {
    await addInstallation(db, { syncId: 'CACHE02' });
    const signedIn = await login(app, 'CACHE02');
    expect(signedIn.statusCode).toBe(200);
    const cookie = sessionCookie(signedIn);
    for (let i = 0; i < 2; i += 1) {
      // The second answer comes from the cache.
      const res = await app.inject({ url: '/api/user', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(signedIn.body);
      expect(ZUser.parse(res.json())).toEqual(res.json());
      for (const header of ['content-type', 'content-length', 'content-security-policy']) {
        expect(res.headers[header], header).toBe(signedIn.headers[header]);
      }
      // Kept by the browser and revalidated with its ETag (http/representations.ts).
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
  });

  it('an installation change without a new configuration version is seen at once by /api/user', async () => {
    await addInstallation(db, { syncId: 'CACHE03' });
    const cookie = await signIn(app, 'CACHE03');
    const before = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(before.json()).toMatchObject({ Premium: 1, configVersion: 1 });
    // Another process changes the licence; the configuration keeps its version.
    await db.query(
      `UPDATE installations SET premium = false, options = '3;X', software = '1;Y;Z' WHERE sync_id = 'CACHE03'`,
    );
    const after = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(after.json()).toMatchObject({ Premium: 0, Options: '3;X', Tablettes: '1;Y;Z', configVersion: 1 });
  });
});

describe('dashboard cache (per configuration version)', () => {
  it("follows the installation's stored zone and the clock without a new configuration version", async () => {
    await addInstallation(db, {
      syncId: 'CACHE04',
      configText: withPlanifications(planning(1, '12:00', 'R')),
    });
    clock = new Date('2025-03-10T12:00:00Z');
    let cookie = await signIn(app, 'CACHE04');
    const get = async () =>
      (await app.inject({ url: '/api/dashboard', headers: { cookie } })).json<TDashboardView>();
    const paris = await get();
    expect(paris.displayTimeZone).toEqual({ zone: 'Europe/Paris', offsetMinutes: 60 });
    expect(paris.lastSync).toMatchObject({ at: '2025-03-09T07:09:52.542Z', stale: false });
    await db.query(`UPDATE installations SET time_zone = 'America/New_York' WHERE sync_id = 'CACHE04'`);
    const newYork = await get();
    expect(newYork.displayTimeZone).toEqual({ zone: 'America/New_York', offsetMinutes: -240 });
    expect(newYork.lastSync.at).toBe('2025-03-09T12:09:52.542Z');
    expect(newYork.configVersion).toBe(paris.configVersion);
    clock = new Date('2025-03-12T20:00:00Z'); // over 72 h later, another day in New York
    cookie = await signIn(app, 'CACHE04');
    expect((await get()).lastSync.stale).toBe(true);
  });

  it('answers 422 on every request for a configuration that cannot be read', async () => {
    const cookie = await signIn(app, 'BROKEN1');
    for (let i = 0; i < 2; i += 1) {
      const res = await app.inject({ url: '/api/dashboard', headers: { cookie } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'unreadable-configuration' });
    }
  });
});

describe('dashboard rules', () => {
  it('software name: second field of the first entry, else the generic name', () => {
    expect(softwareNameOf('1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom')).toBe(
      'EBP GesCom Open Line',
    );
    expect(softwareNameOf('1;Sage 100;S')).toBe('Sage 100');
    expect(softwareNameOf('')).toBe('votre ERP');
    expect(softwareNameOf('1')).toBe('votre ERP');
    expect(softwareNameOf('1; ;X')).toBe('votre ERP');
  });

  it('authorised terminals: first field of Options', () => {
    expect(authorisedTerminalsOf('25;DEMOA001;A')).toBe(25);
    expect(authorisedTerminalsOf('3')).toBe(3);
    expect(authorisedTerminalsOf('')).toBeNull();
    expect(authorisedTerminalsOf('x;1')).toBeNull();
  });

  it('automate state from NuxiAutomateInstall', () => {
    expect(automateStateOf(1)).toBe('installed');
    expect(automateStateOf(0)).toBe('not-installed');
    expect(automateStateOf(-1)).toBe('update-required');
    expect(automateStateOf(null)).toBe('unknown');
    expect(automateStateOf(7)).toBe('unknown');
  });

  it('zone: Planifications, else the stored zone, else Europe/Paris', () => {
    expect(installationZone('America/New_York', 'Asia/Tokyo')).toBe('America/New_York');
    expect(installationZone('', 'Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(installationZone('Not/AZone', 'bad')).toBe('Europe/Paris');
  });

  it('stale: older than 72 hours and not today in the display zone', () => {
    const at = '2025-03-09T07:09:52.542Z';
    expect(isStale(at, new Date('2025-03-12T07:09:53Z'), 'Europe/Paris')).toBe(true);
    expect(isStale(at, new Date('2025-03-12T07:09:52Z'), 'Europe/Paris')).toBe(false);
    expect(isStale(null, new Date('2030-01-01T00:00:00Z'), 'Europe/Paris')).toBe(false);
    // More than 72 h but the same calendar day cannot happen; a day boundary in the zone matters:
    // 2025-03-01 00:30 Paris (23:30 UTC on 28 Feb) seen on 4 March 01:00 Paris: 72.5 h, other day.
    expect(isStale('2025-02-28T23:30:00Z', new Date('2025-03-04T00:00:00Z'), 'Europe/Paris')).toBe(true);
  });
});

describe('the automate service (its newest report)', () => {
  const register = (syncId: string, ip: string, reportedAt: Date) =>
    db.query(
      `INSERT INTO automate_registrations (installation_id, ip, port, version, machine_name, reported_at)
       SELECT id, $2, 8080, '6.11.23.9', 'SRV-ERP', $3 FROM installations WHERE sync_id = $1
       ON CONFLICT (installation_id) DO UPDATE SET ip = EXCLUDED.ip, reported_at = EXCLUDED.reported_at`,
      [syncId, ip, reportedAt],
    );

  it('never registered: offline, nothing known', async () => {
    clock = new Date('2025-03-10T12:00:00Z');
    await addInstallation(db, { syncId: 'AUTOSV01' });
    expect((await dashboard('AUTOSV01')).automateService).toEqual({
      registered: false,
      online: false,
      lastReportAt: null,
      lastReportAgeSeconds: null,
      version: null,
      machineName: null,
      address: null,
      ordersRefused: null,
    });
  });

  it('online within 24 hours of its last report, offline after, with its age, version and machine', async () => {
    clock = new Date('2025-03-10T12:00:00Z');
    await register('AUTOSV01', '198.51.99.10', new Date('2025-03-10T11:57:00Z'));
    expect((await dashboard('AUTOSV01')).automateService).toEqual({
      registered: true,
      online: true,
      lastReportAt: '2025-03-10T11:57:00.000Z',
      lastReportAgeSeconds: 180,
      version: '6.11.23.9',
      machineName: 'SRV-ERP',
      address: '198.51.99.10:8080',
      ordersRefused: null,
    });
    clock = new Date('2025-03-11T11:57:00Z'); // exactly 24 h: still online
    expect((await dashboard('AUTOSV01')).automateService.online).toBe(true);
    clock = new Date('2025-03-11T11:57:01Z');
    expect((await dashboard('AUTOSV01')).automateService).toMatchObject({
      online: false,
      lastReportAgeSeconds: 86_401,
    });
  });

  it('says why no order goes to an address the policy refuses (asked at each view)', async () => {
    clock = new Date('2025-03-10T12:00:00Z');
    await register('AUTOSV01', '192.168.1.20', new Date('2025-03-10T11:59:00Z'));
    expect((await dashboard('AUTOSV01')).automateService).toMatchObject({
      online: true,
      address: '192.168.1.20:8080',
      ordersRefused: expect.stringContaining(
        'L’adresse 192.168.1.20 est une adresse privée (192.168.0.0/16)',
      ),
    });
  });

  it('writes an IPv6 address in brackets', async () => {
    clock = new Date('2025-03-10T12:00:00Z');
    await register('AUTOSV01', '2001:db8::5', new Date('2025-03-10T11:59:00Z'));
    expect((await dashboard('AUTOSV01')).automateService.address).toBe('[2001:db8::5]:8080');
  });
});
