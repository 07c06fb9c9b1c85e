import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../../test/helpers/app.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import type { Db } from '../../db/types.ts';
import { normaliseIpAddress } from '../../network/automate-address.ts';
import { outwardAddress } from '../../network/outward-address.ts';
import { NO_NETWORK_MESSAGE } from './routes.ts';

let db: Db;
let cookie: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  db = await openTestDb();
  await addInstallation(db, { syncId: 'SRVIP01' });
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await db.close();
});

async function serverIp(extra: Parameters<typeof testApp>[1]) {
  const app = await testApp(db, extra);
  apps.push(app);
  cookie = await signIn(app, 'SRVIP01');
  return app.inject({ url: '/api/server-ip', headers: { cookie } });
}

/** Every address of this machine's interfaces, loopback excluded. */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i !== undefined && !i.internal)
    .map((i) => normaliseIpAddress(i?.address ?? '') ?? '');
}

describe('GET /api/server-ip', () => {
  it('answers PUBLIC_IP when it is set', async () => {
    const res = await serverIp({ publicIp: '203.0.113.10' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ip: '203.0.113.10', source: 'configured' });
  });

  it("without PUBLIC_IP: the address of the server's default route, one of its own non-loopback addresses", async () => {
    const res = await serverIp({});
    expect(res.statusCode, res.body).toBe(200);
    const { ip, source } = res.json<{ ip: string; source: string }>();
    expect(source).toBe('interface');
    expect(ip).not.toMatch(/^127\.|^::1$/);
    expect(ownAddresses()).toContain(normaliseIpAddress(ip));
    expect(await outwardAddress()).toBe(ip);
  });

  it('on a machine without any network: 503 with a French message', async () => {
    const res = await serverIp({ outwardAddress: () => Promise.resolve(null) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: NO_NETWORK_MESSAGE, code: 'NO_NETWORK' });
  });

  it('needs a session', async () => {
    const app = await testApp(db, { publicIp: '203.0.113.10' });
    apps.push(app);
    expect((await app.inject({ url: '/api/server-ip' })).statusCode).toBe(401);
  });
});
