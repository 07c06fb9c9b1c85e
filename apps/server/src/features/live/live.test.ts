import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, testApp } from '../../../test/helpers/app.ts';
import {
  connectorCall,
  connectorInstallation,
  importRecord,
  transaction,
} from '../../../test/helpers/connector.ts';
import { openTestDb, openTestDbPair, usingPostgres } from '../../../test/helpers/db.ts';
import type { Db } from '../../db/types.ts';
import { createLifecycle } from '../../lifecycle.ts';
import { MAX_STREAMS_PER_INSTALLATION } from './routes.ts';

/** An open GET /api/events: the events read so far, by name. */
interface Stream {
  events: { event: string; data: Record<string, unknown> }[];
  text: () => string;
  res: IncomingMessage;
  close: () => void;
}

async function openStream(app: FastifyInstance, cookie: string): Promise<Stream> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/events', headers: { cookie } }, (res) => {
      let text = '';
      const events: Stream['events'] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const blocks = text.split('\n\n');
        events.length = 0;
        for (const block of blocks) {
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      });
      resolve({ events, text: () => text, res, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
};

describe('GET /api/events', () => {
  let db: Db;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await openTestDb();
    app = await testApp(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('refuses a request without a session (401), answers an event stream with a session', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/events' });
    expect(anonymous.statusCode).toBe(401);
    const inst = await connectorInstallation(db, 'LIVE0001');
    const stream = await openStream(app, await signIn(app, inst.syncId));
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers['content-type']).toMatch(/^text\/event-stream/);
    await until(() => stream.text().startsWith('retry: '));
    stream.close();
  });

  it('tells the streams of the installation, not another: records and transactions with their counts, a configuration saved elsewhere', async () => {
    const inst = await connectorInstallation(db, 'LIVE0002');
    const other = await connectorInstallation(db, 'LIVE0003');
    const mine = await openStream(app, await signIn(app, inst.syncId));
    const theirs = await openStream(app, await signIn(app, other.syncId));
    await until(() => mine.text().length > 0 && theirs.text().length > 0);

    const posted = await connectorCall(app, 'POST', '/import-records', inst.token, {
      records: [importRecord({ IDInterne: 'LIVEREC1' }), importRecord({ IDInterne: 'LIVEREC2' })],
    });
    expect(posted.statusCode).toBe(200);
    await until(() => mine.events.some((e) => e.event === 'records'));
    expect(mine.events.find((e) => e.event === 'records')?.data).toEqual({ type: 'records', count: 2 });

    await connectorCall(app, 'POST', '/transactions', inst.token, { transactions: [transaction()] });
    await until(() => mine.events.some((e) => e.event === 'transactions'));
    expect(mine.events.find((e) => e.event === 'transactions')?.data).toEqual({
      type: 'transactions',
      count: 1,
    });

    // A second session of the same installation saves Planification: the stream hears the new version.
    const cookie = await signIn(app, inst.syncId);
    const saved = await app.inject({
      method: 'POST',
      url: '/api/plannings',
      headers: { cookie },
      payload: { plannings: [{ day: 8, time: '06:00', type: 'C' }], xmlInfo: { exe: '', serial: '' } },
    });
    expect(saved.statusCode).toBe(200);
    const version = saved.json<{ version: number }>().version;
    await until(() => mine.events.some((e) => e.event === 'config'));
    expect(mine.events.find((e) => e.event === 'config')?.data).toEqual({ type: 'config', version });

    expect(theirs.events).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("a logout ends the session's open streams at once; another session's stream stays", async () => {
    const inst = await connectorInstallation(db, 'LIVE0006');
    const cookie = await signIn(app, inst.syncId);
    const mine = await openStream(app, cookie);
    const other = await openStream(app, await signIn(app, inst.syncId));
    await until(() => mine.text().length > 0 && other.text().length > 0);
    const ended = new Promise<void>((resolve) => mine.res.on('end', () => resolve()));
    expect(
      (await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } })).statusCode,
    ).toBeLessThan(300);
    await ended;
    await connectorCall(app, 'POST', '/import-records', inst.token, {
      records: [importRecord({ IDInterne: 'LIVEREC6' })],
    });
    await until(() => other.events.some((e) => e.event === 'records'));
    expect(mine.events).toEqual([]);
    other.close();
  });

  it('a session ended elsewhere (another server, expiry, suspension) ends its stream at the next heartbeat', async () => {
    const quick = await testApp(db, { liveHeartbeatMs: 100 });
    await quick.listen({ port: 0, host: '127.0.0.1' });
    try {
      const inst = await connectorInstallation(db, 'LIVE0007');
      const stream = await openStream(quick, await signIn(quick, inst.syncId));
      await until(() => stream.text().includes(': ping'));
      const ended = new Promise<void>((resolve) => stream.res.on('end', () => resolve()));
      await db.query('DELETE FROM sessions WHERE installation_id = $1', [inst.id]);
      await ended;

      // Suspended: the same.
      const cookie = await signIn(quick, inst.syncId);
      const again = await openStream(quick, cookie);
      await until(() => again.text().includes(': ping'));
      const endedAgain = new Promise<void>((resolve) => again.res.on('end', () => resolve()));
      await db.query('UPDATE installations SET suspended = true WHERE id = $1', [inst.id]);
      await endedAgain;
      await db.query('UPDATE installations SET suspended = false WHERE id = $1', [inst.id]);
    } finally {
      await quick.close();
    }
  });

  it(`at most ${MAX_STREAMS_PER_INSTALLATION} open streams per installation: the next one gets a French 429; another installation is not counted`, async () => {
    const inst = await connectorInstallation(db, 'LIVE0008');
    const other = await connectorInstallation(db, 'LIVE0009');
    const cookie = await signIn(app, inst.syncId);
    const streams: Stream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_INSTALLATION; i++) streams.push(await openStream(app, cookie));
    const refused = await openStream(app, cookie);
    expect(refused.res.statusCode).toBe(429);
    await until(() => refused.text().includes('Trop de fenêtres de la console'));
    const theirs = await openStream(app, await signIn(app, other.syncId));
    expect(theirs.res.statusCode).toBe(200);
    // One closed: one more may open.
    const closed = new Promise<void>((resolve) => streams[0]!.res.on('close', () => resolve()));
    streams[0]!.close();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await openStream(app, cookie);
    expect(again.res.statusCode).toBe(200);
    for (const stream of [...streams, again, theirs, refused]) stream.close();
  });

  it('SIGTERM (the lifecycle stopping) ends the open streams while the server still answers', async () => {
    const lifecycle = createLifecycle();
    const db2 = await openTestDb();
    const app2 = await testApp(db2, { lifecycle });
    await app2.listen({ port: 0, host: '127.0.0.1' });
    const inst = await connectorInstallation(db2, 'LIVE0005');
    const stream = await openStream(app2, await signIn(app2, inst.syncId));
    const ended = new Promise<void>((resolve) => stream.res.on('end', () => resolve()));
    lifecycle.stop();
    await ended;
    expect(app2.server.listening).toBe(true);
    await app2.close();
    await db2.close();
  });

  it('the server closing ends the open streams', async () => {
    const db2 = await openTestDb();
    const app2 = await testApp(db2);
    await app2.listen({ port: 0, host: '127.0.0.1' });
    const inst = await connectorInstallation(db2, 'LIVE0004');
    const stream = await openStream(app2, await signIn(app2, inst.syncId));
    const ended = new Promise<void>((resolve) => stream.res.on('close', () => resolve()));
    await app2.close();
    await ended;
    expect(app2.server.listening).toBe(false);
    await db2.close();
  });
});

describe.skipIf(!usingPostgres())('two servers on one PostgreSQL (LISTEN/NOTIFY)', () => {
  let dbA: Db;
  let dbB: Db;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  beforeAll(async () => {
    [dbA, dbB] = await openTestDbPair();
    appA = await testApp(dbA);
    appB = await testApp(dbB);
    await appA.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await appA?.close();
    await appB?.close();
    await dbB?.close();
    await dbA?.close();
  });

  it('a batch received by one server reaches a stream open on the other', async () => {
    const inst = await connectorInstallation(dbA, 'LIVEPG01');
    const stream = await openStream(appA, await signIn(appA, inst.syncId));
    await until(() => stream.text().length > 0);
    // The LISTEN connection of appA is opened at start; give it its first round trip.
    await until(() => appA.hasRoute({ method: 'GET', url: '/api/events' }));
    let delivered = false;
    for (let i = 0; i < 20 && !delivered; i++) {
      await connectorCall(appB, 'POST', '/import-records', inst.token, {
        records: [importRecord({ IDInterne: `LIVEPG${i}` })],
      });
      await new Promise((r) => setTimeout(r, 100));
      delivered = stream.events.some((e) => e.event === 'records');
    }
    expect(stream.events.find((e) => e.event === 'records')?.data).toEqual({ type: 'records', count: 1 });
    stream.close();
  });
});
