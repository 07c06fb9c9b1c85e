import { ZAutomateReportAnswer, type TDashboardView } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { signIn, testApp, useTestApp } from '../../../test/helpers/app.ts';
import {
  connectorCall,
  connectorInstallation,
  expectConnectorError,
} from '../../../test/helpers/connector.ts';
import { usingPostgres } from '../../../test/helpers/db.ts';

/** POST /api/connector/v1/automate: the automate's report and the address policy. */

let clock = new Date('2025-11-14T10:00:00Z');

const ctx = useTestApp({ now: () => clock });

interface Registration {
  ip: string;
  port: number;
  version: string;
  machine_name: string;
  first_reported_at: Date;
  reported_at: Date;
}

async function registration(id: string): Promise<Registration | undefined> {
  const [row] = await ctx.db.query<Registration>(
    'SELECT * FROM automate_registrations WHERE installation_id = $1',
    [id],
  );
  return row;
}

async function audits(id: string) {
  return ctx.db.query<{ actor: string; details: Record<string, unknown> }>(
    `SELECT actor, details FROM audit_log WHERE installation_id = $1 AND action = 'automate.register' ORDER BY id`,
    [id],
  );
}

/** A report recorded (200) whose answer says no order will be sent, with the policy's reason. */
function ordersRefused(res: { statusCode: number; body: string; json: () => unknown }): string {
  expect(res.statusCode, res.body).toBe(200);
  const answer = ZAutomateReportAnswer.parse(res.json());
  expect(answer.ordersRefused).toMatch(/^Aucun ordre ne sera envoyé à l’automate\. /);
  return answer.ordersRefused ?? '';
}

describe('registration', () => {
  it('stores the report (newest kept, with its time) and answers {ip, port, registeredAt}', async () => {
    const a = await connectorInstallation(ctx.db, 'AUTO1');
    const res = await connectorCall(ctx.app, 'POST', '/automate', a.token, {
      port: 8085,
      version: '6.11.23.9',
      machineName: 'SRV-ERP',
      ip: '8.8.4.4',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZAutomateReportAnswer.parse(res.json())).toEqual({
      ip: '8.8.4.4',
      port: 8085,
      registeredAt: '2025-11-14T10:00:00.000Z',
    });
    expect(await registration(a.id)).toMatchObject({
      ip: '8.8.4.4',
      port: 8085,
      version: '6.11.23.9',
      machine_name: 'SRV-ERP',
      reported_at: clock,
      first_reported_at: clock,
    });

    // A heartbeat five minutes later: same address, newer time; not audited again.
    const first = clock;
    clock = new Date(clock.getTime() + 5 * 60_000);
    const again = await connectorCall(ctx.app, 'POST', '/automate', a.token, {
      port: '8085',
      version: '6.11.23.9',
      machineName: 'SRV-ERP',
      ip: '8.8.4.4',
    });
    expect(again.json()).toMatchObject({ registeredAt: clock.toISOString() });
    expect(await registration(a.id)).toMatchObject({ reported_at: clock, first_reported_at: first });
    expect(await audits(a.id)).toHaveLength(1);

    // A new address and port replace the old ones, audited with the previous ones.
    const moved = await connectorCall(ctx.app, 'POST', '/automate', a.token, {
      port: 9090,
      ip: '2A00:1450:4007:80C::200E',
    });
    expect(moved.json()).toMatchObject({ ip: '2a00:1450:4007:80c::200e', port: 9090 });
    expect(await registration(a.id)).toMatchObject({
      ip: '2a00:1450:4007:80c::200e',
      port: 9090,
      version: '',
      machine_name: '',
    });
    const logged = await audits(a.id);
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatchObject({
      actor: 'connector',
      details: { ip: '2a00:1450:4007:80c::200e', port: 9090, previous: { ip: '8.8.4.4', port: 8085 } },
    });
  });

  it('without ip: the source address; loopback gets no order for an installation that is not the demo, on both databases', async () => {
    const a = await connectorInstallation(ctx.db, 'AUTO2');
    const res = await connectorCall(ctx.app, 'POST', '/automate', a.token, { port: 8085 });
    expect(ordersRefused(res)).toContain('127.0.0.1 est une adresse de boucle locale');
    const viaLoopback = await ctx.app.inject({
      method: 'POST',
      url: '/api/connector/v1/automate',
      remoteAddress: '::ffff:127.0.0.1',
      headers: { authorization: `Bearer ${a.token}` },
      payload: { port: 8086, ip: null },
    });
    expect(ordersRefused(viaLoopback)).toContain('127.0.0.1');
    const explicit = await connectorCall(ctx.app, 'POST', '/automate', a.token, { port: 8086, ip: '::1' });
    expect(ordersRefused(explicit)).toContain('::1');
    // Recorded all the same: the service is alive (the Général screen says why no order goes).
    expect(await registration(a.id)).toMatchObject({ ip: '::1', port: 8086 });
    expect(await audits(a.id)).toHaveLength(3);
    const fromPublic = await ctx.app.inject({
      method: 'POST',
      url: '/api/connector/v1/automate',
      remoteAddress: '203.0.114.7',
      headers: { authorization: `Bearer ${a.token}` },
      payload: { port: 8087, ip: '' },
    });
    expect(fromPublic.json()).toMatchObject({ ip: '203.0.114.7', port: 8087 });
    expect(fromPublic.json()).not.toHaveProperty('ordersRefused');
  });

  it('the demo installation (DEMOA001) may register on loopback on the embedded database only', async () => {
    const demo = await connectorInstallation(ctx.db, 'DEMOA001');
    const res = await connectorCall(ctx.app, 'POST', '/automate', demo.token, { port: 8085 });
    if (usingPostgres()) {
      expect(ordersRefused(res)).toContain('127.0.0.1 est une adresse de boucle locale');
      expect(await registration(demo.id)).toMatchObject({ ip: '127.0.0.1' });
    } else {
      expect(res.json()).toMatchObject({ ip: '127.0.0.1', port: 8085 });
      const v6 = await connectorCall(ctx.app, 'POST', '/automate', demo.token, { port: 8086, ip: '::1' });
      expect(v6.json()).toMatchObject({ ip: '::1', port: 8086 });
    }
  });

  it('AUTOMATE_NETWORKS=loopback given explicitly lets any installation register on loopback, on both databases', async () => {
    const a = await connectorInstallation(ctx.db, 'AUTOLOOP1');
    const loop = await testApp(ctx.db, { now: () => clock, automateNetworks: 'loopback' });
    try {
      const res = await connectorCall(loop, 'POST', '/automate', a.token, { port: 8085 });
      expect(res.json()).toMatchObject({ ip: '127.0.0.1', port: 8085 });
    } finally {
      await loop.close();
    }
    expect(await registration(a.id)).toMatchObject({ ip: '127.0.0.1', port: 8085 });
  });

  it('behind a trusted proxy the forwarded address is the source; without trust it is ignored', async () => {
    const a = await connectorInstallation(ctx.db, 'AUTO3');
    const behindProxy = await testApp(ctx.db, {
      now: () => clock,
      trustProxy: '127.0.0.1',
      automateNetworks: 'public',
    });
    try {
      const res = await connectorCall(
        behindProxy,
        'POST',
        '/automate',
        a.token,
        { port: 8085 },
        {
          'x-forwarded-for': '198.52.10.20',
        },
      );
      expect(res.json()).toMatchObject({ ip: '198.52.10.20' });
    } finally {
      await behindProxy.close();
    }
    const direct = await testApp(ctx.db, { now: () => clock, automateNetworks: 'public' });
    try {
      const res = await connectorCall(
        direct,
        'POST',
        '/automate',
        a.token,
        { port: 8085 },
        {
          'x-forwarded-for': '198.52.10.20',
        },
      );
      expect(ordersRefused(res)).toContain('127.0.0.1');
    } finally {
      await direct.close();
    }
    expect(await registration(a.id)).toMatchObject({ ip: '127.0.0.1' });
  });

  it.each([
    ['10.0.0.5', 'une adresse privée (10.0.0.0/8)'],
    ['192.168.1.1', 'une adresse privée (192.168.0.0/16)'],
    ['::ffff:172.16.5.4', 'une adresse privée (172.16.0.0/12)'],
    ['169.254.169.254', 'une adresse de lien local (169.254.0.0/16)'],
    ['100.64.0.1', 'une adresse partagée d’opérateur (CGNAT) (100.64.0.0/10)'],
    ['224.0.0.1', 'une adresse de multidiffusion (224.0.0.0/4)'],
    ['0.0.0.0', 'une adresse non spécifiée (0.0.0.0/8)'],
    ['203.0.113.10', 'une adresse réservée à la documentation (203.0.113.0/24)'],
    ['fd00::1', 'une adresse locale unique (réseau privé IPv6) (fc00::/7)'],
    ['fe80::1', 'une adresse de lien local (fe80::/10)'],
  ])('records %s and says, in French, that no order will be sent there and why', async (ip, what) => {
    const a = await connectorInstallation(ctx.db, `REF${ip.replace(/\W/g, '')}`.toUpperCase().slice(0, 30));
    const res = await connectorCall(ctx.app, 'POST', '/automate', a.token, { port: 8085, ip });
    const message = ordersRefused(res);
    expect(message).toContain(`L’adresse ${ip.replace('::ffff:', '')} est ${what}`);
    expect(message).toContain('AUTOMATE_NETWORKS');
    expect(await registration(a.id)).toMatchObject({ ip: ip.replace('::ffff:', ''), port: 8085 });
    expect(await audits(a.id)).toHaveLength(1);
    // The Général screen says it too.
    const cookie = await signIn(ctx.app, a.syncId);
    const dashboard = await ctx.app.inject({ url: '/api/dashboard', headers: { cookie } });
    expect(dashboard.json<TDashboardView>().automateService).toMatchObject({
      online: true,
      ordersRefused: expect.stringContaining(`est ${what}`),
    });
  });

  it('AUTOMATE_NETWORKS replaces the default policy', async () => {
    const a = await connectorInstallation(ctx.db, 'AUTONET1');
    const lan = await testApp(ctx.db, { now: () => clock, automateNetworks: '10.20.0.0/16, fd00:1234::/32' });
    try {
      expect(
        (await connectorCall(lan, 'POST', '/automate', a.token, { port: 8085, ip: '10.20.3.4' })).json(),
      ).toMatchObject({
        ip: '10.20.3.4',
      });
      expect(
        (await connectorCall(lan, 'POST', '/automate', a.token, { port: 8085, ip: 'fd00:1234::9' }))
          .statusCode,
      ).toBe(200);
      const refused = await connectorCall(lan, 'POST', '/automate', a.token, { port: 8085, ip: '8.8.8.8' });
      expect(ordersRefused(refused)).toContain(
        'n’appartient à aucun des réseaux autorisés par AUTOMATE_NETWORKS (10.20.0.0/16, fd00:1234::/32)',
      );
    } finally {
      await lan.close();
    }
    expect(await registration(a.id)).toMatchObject({ ip: '8.8.8.8' });
  });

  it('an invalid AUTOMATE_NETWORKS stops the server at start with a French message', async () => {
    await expect(testApp(ctx.db, { automateNetworks: '10.0.0.0/33' })).rejects.toThrow(
      'AUTOMATE_NETWORKS invalide : longueur de préfixe invalide dans « 10.0.0.0/33 » (au plus 32).',
    );
  });

  it('400 naming the field for an invalid report, nothing written', async () => {
    const a = await connectorInstallation(ctx.db, 'AUTOBAD1');
    const cases: [unknown, string][] = [
      [{ port: 0 }, 'Requête invalide\u00a0: port\u00a0: nombre entier attendu, entre 1 et 65\u202f535'],
      [{}, 'Requête invalide\u00a0: port\u00a0: champ obligatoire'],
      [
        { port: 8085, ip: 'serveur.local' },
        'Requête invalide\u00a0: ip\u00a0: adresse IPv4 ou IPv6 attendue',
      ],
      [
        { port: 8085, machineName: 'x'.repeat(300) },
        'Requête invalide\u00a0: machineName\u00a0: au plus 255 caractères',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await connectorCall(ctx.app, 'POST', '/automate', a.token, body);
      expect(expectConnectorError(res, 400, 'invalid-request'), JSON.stringify(body)).toBe(message);
    }
    expect(await registration(a.id)).toBeUndefined();
  });
});
