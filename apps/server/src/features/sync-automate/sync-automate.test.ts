import { parseRecord } from '@synchro/config-xml';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, testApp, useTestApp } from '../../../test/helpers/app.ts';
import { connectorCall, connectorInstallation } from '../../../test/helpers/connector.ts';
import {
  answering,
  automateAnswer,
  closedPort,
  notHttpPeer,
  scriptedAutomate,
  type ScriptedAutomate,
} from '../../../test/helpers/scripted-automate.ts';
import { automateHostPort } from '../../domain/automate-registrations.ts';
import { BUSY_MESSAGE, NO_AUTOMATE_MESSAGE, NOT_PREMIUM_MESSAGE, UNREACHABLE_MESSAGE } from './messages.ts';

/**
 * Sync orders (docs/server.md, Sync orders) against scripted automates started here: node:http
 * servers on 127.0.0.1 that record what they receive. Loopback is allowed for them through
 * AUTOMATE_NETWORKS on both databases (by default only the demo installation may use it, on the
 * embedded database).
 */

const peers: { close(): Promise<void> }[] = [];
const loopback: Parameters<typeof testApp>[1] = { automateNetworks: 'loopback' };

const ctx = useTestApp(loopback);
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});

async function automate(handler: Parameters<typeof scriptedAutomate>[0]): Promise<ScriptedAutomate> {
  const peer = await scriptedAutomate(handler);
  peers.push(peer);
  return peer;
}

let counter = 0;

/** A premium installation whose automate registered at 127.0.0.1:port (through the connector API). */
async function installationAt(port: number, extra: Parameters<typeof connectorInstallation>[2] = {}) {
  counter += 1;
  const inst = await connectorInstallation(ctx.db, `ORDER${String(counter).padStart(3, '0')}`, extra);
  const res = await connectorCall(ctx.app, 'POST', '/automate', inst.token, {
    port,
    ip: '127.0.0.1',
    version: '6.11.23.9',
    machineName: 'SRV-ERP',
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = await signIn(ctx.app, inst.syncId);
  return { ...inst, cookie };
}

async function order(cookie: string, type: string, on: FastifyInstance = ctx.app) {
  const res = await on.inject({
    method: 'POST',
    url: '/api/sync-automate',
    headers: { cookie },
    payload: { type },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ retSync: number; retInfo: string; outcome: string }>();
}

async function lastAudit(installationId: string) {
  const [row] = await ctx.db.query<{ details: Record<string, unknown>; actor: string; address: string }>(
    `SELECT details, actor, address FROM audit_log
     WHERE installation_id = $1 AND action = 'sync-automate.request' ORDER BY id DESC LIMIT 1`,
    [installationId],
  );
  return row;
}

async function ordersOf(installationId: string) {
  return ctx.db.query<{
    id: string;
    type: string;
    outcome: string | null;
    ret_sync: number | null;
    finished: boolean;
  }>(
    `SELECT id, type, outcome, ret_sync, finished_at IS NOT NULL AS finished FROM sync_orders
     WHERE installation_id = $1 ORDER BY requested_at`,
    [installationId],
  );
}

/** The order a request target carries: its XML, decoded from the base64 path. */
function decodeTarget(target: string): string {
  const payload = target.slice(1);
  expect(payload).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  const xml = Buffer.from(payload, 'base64').toString('utf8');
  expect(Buffer.from(xml, 'utf8').toString('base64')).toBe(payload);
  return xml;
}

const storedInfo = (name: string) =>
  new RegExp(`<Info>[\\s\\S]*?<${name}>([^<]*)</${name}>`).exec(FIXTURE_CONFIG)?.[1];

describe('the order sent', () => {
  it('is one GET of the base64 Automate XML, built from the stored configuration, at the registered address', async () => {
    const peer = await automate(answering(automateAnswer(1, 'Synchronisation Complète lancée.')));
    const inst = await installationAt(peer.port);
    const before = Date.now();
    const answer = await order(inst.cookie, 'C');
    expect(answer).toEqual({ retSync: 1, retInfo: 'Synchronisation Complète lancée.', outcome: 'accepted' });
    expect(peer.requests).toHaveLength(1);

    const xml = decodeTarget(peer.requests[0] ?? '');
    expect(xml.startsWith('<Automate>')).toBe(true); // no declaration
    const { index: ix } = parseRecord(xml);
    expect(ix.name(0)).toBe('Automate');
    const text = (path: string) => {
      const el = ix.path(0, path);
      expect(el, path).toBeGreaterThanOrEqual(0);
      return ix.xmlText(el);
    };
    const requestId = text('IDInterne_Demande');
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(text('Instruction')).toBe('SYNCHRO');
    const timestamp = text('TimeStamp');
    expect(timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(timestamp)).toBeLessThanOrEqual(Date.now());
    expect(text('SYNCHRO/TypeSync')).toBe('C');
    // As the connector stores them: its text convention kept (ExÃ©cutable).
    expect(storedInfo('Exe')).toContain('ExÃ©cutable');
    expect(text('SYNCHRO/Connecteur_Exe')).toBe(storedInfo('Exe'));
    expect(text('SYNCHRO/Connecteur_Indice')).toBe(storedInfo('Serial'));
    expect(ix.path(0, 'SYNCHRO/LCommande3')).toBeGreaterThanOrEqual(0);
    expect(text('SYNCHRO/LCommande3')).toBe('');
    expect(text('SYNCHRO/IDSynchro')).toBe(inst.syncId);
    expect(text('SYNCHRO/IDDeviceDemandeur')).toBe('Connecteur');

    // The order is kept, finished, with its id.
    expect(await ordersOf(inst.id)).toEqual([
      { id: requestId, type: 'C', outcome: 'accepted', ret_sync: 1, finished: true },
    ]);
    const audit = await lastAudit(inst.id);
    expect(audit).toMatchObject({
      actor: 'user',
      details: {
        type: 'C',
        outcome: 'accepted',
        retSync: 1,
        orderId: requestId,
        automate: `127.0.0.1:${peer.port}`,
      },
    });
    // Never a secret nor the configuration's values in the audit.
    const logged = JSON.stringify(audit);
    expect(logged).not.toContain(inst.token);
    expect(logged).not.toContain('Exécutable');
    expect(logged).not.toContain(storedInfo('Serial'));
  });

  it('sends each type with a fresh uuid', async () => {
    const peer = await automate(answering(automateAnswer(1, 'OK')));
    const inst = await installationAt(peer.port);
    for (const type of ['R', 'I'] as const) expect((await order(inst.cookie, type)).retSync).toBe(1);
    const [r, i] = peer.requests.map((t) => parseRecord(decodeTarget(t)).index);
    expect(r?.xmlText(r.path(0, 'SYNCHRO/TypeSync'))).toBe('R');
    expect(i?.xmlText(i.path(0, 'SYNCHRO/TypeSync'))).toBe('I');
    expect(r?.xmlText(r.path(0, 'IDInterne_Demande'))).not.toBe(i?.xmlText(i.path(0, 'IDInterne_Demande')));
  });

  it('writes an IPv6 address in brackets', () => {
    expect(automateHostPort({ ip: '2001:db8::5', port: 8080 })).toBe('[2001:db8::5]:8080');
    expect(automateHostPort({ ip: '203.0.113.5', port: 8080 })).toBe('203.0.113.5:8080');
  });
});

describe("the automate's answer", () => {
  it("a refusal shows the automate's own message, cleaned", async () => {
    const peer = await automate(
      answering(
        automateAnswer(
          0,
          'Demande refusÃ©e : l&amp;apos;automate est en maintenance./nRÃ©essayez plus tard.',
        ),
      ),
    );
    const inst = await installationAt(peer.port);
    expect(await order(inst.cookie, 'R')).toEqual({
      retSync: 0,
      retInfo: "Demande refusée : l'automate est en maintenance.\nRéessayez plus tard.",
      outcome: 'refused',
    });
    expect((await ordersOf(inst.id))[0]).toMatchObject({ outcome: 'refused', ret_sync: 0, finished: true });
  });

  it('a Latin-1 answer declared as such is read as Latin-1', async () => {
    const body = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><Automate><RetSync>1</RetSync><RetInfo>Demande reçue, créée.</RetInfo></Automate>',
      'latin1',
    );
    const peer = await automate((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end(body);
    });
    const inst = await installationAt(peer.port);
    expect((await order(inst.cookie, 'C')).retInfo).toBe('Demande reçue, créée.');
  });

  it('unreachable (nobody listens): the legacy message with the address and the reason', async () => {
    const port = await closedPort();
    const inst = await installationAt(port);
    const answer = await order(inst.cookie, 'C');
    expect(answer).toMatchObject({ retSync: 0, outcome: 'unreachable' });
    expect(answer.retInfo).toBe(`${UNREACHABLE_MESSAGE} (127.0.0.1:${port} : connexion refusée)`);
    expect((await ordersOf(inst.id))[0]).toMatchObject({ outcome: 'unreachable', finished: true });
  });

  it('hanging: answered after the 10 s timeout, and the next order goes', { timeout: 30_000 }, async () => {
    let hang = true;
    const peer = await automate((req, res) => {
      if (hang) return; // accepts the connection, never answers
      answering(automateAnswer(1, 'Synchronisation lancée.'))(req, res);
    });
    const inst = await installationAt(peer.port);
    const started = Date.now();
    const answer = await order(inst.cookie, 'C');
    const elapsed = Date.now() - started;
    expect(answer).toMatchObject({ retSync: 0, outcome: 'timeout' });
    expect(answer.retInfo).toMatch(
      /^Le service d'automate \(127\.0\.0\.1:\d+\) n'a pas répondu dans les 10 secondes/,
    );
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(elapsed).toBeLessThan(12_000);
    hang = false;
    expect(await order(inst.cookie, 'C')).toMatchObject({ retSync: 1, outcome: 'accepted' });
    expect(peer.requests).toHaveLength(2);
    expect((await ordersOf(inst.id)).map((o) => o.outcome)).toEqual(['timeout', 'accepted']);
  });

  it('malformed answers: not XML, no RetSync, an HTTP error, not HTTP at all', async () => {
    const cases: [Parameters<typeof scriptedAutomate>[0], RegExp][] = [
      [answering('OK, bien reçu'), /illisible \(XML invalide : /],
      [answering('<Automate><RetInfo>Bonjour</RetInfo></Automate>'), /illisible \(RetSync absent\)/],
      [answering('<Automate><RetSync>1</RetSync>'), /illisible \(XML invalide : /],
      [
        (_req, res) => {
          res.writeHead(500);
          res.end('boom');
        },
        /illisible \(réponse HTTP 500\)/,
      ],
    ];
    for (const [handler, message] of cases) {
      const peer = await automate(handler);
      const inst = await installationAt(peer.port);
      const answer = await order(inst.cookie, 'C');
      expect(answer.outcome).toBe('malformed-answer');
      expect(answer.retSync).toBe(0);
      expect(answer.retInfo).toMatch(message);
      expect(answer.retInfo).toMatch(/impossible de savoir si la demande a été acceptée/);
    }
    const raw = await notHttpPeer();
    peers.push(raw);
    const inst = await installationAt(raw.port);
    const answer = await order(inst.cookie, 'C');
    expect(answer.outcome).toBe('malformed-answer');
    expect(answer.retInfo).toMatch(/illisible \(ce n'est pas une réponse HTTP\)/);
  });

  it('an answer over 64 KB is not read: declared, or streamed without a length', async () => {
    const declared = await automate((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': String(1024 * 1024) });
      res.end(Buffer.alloc(1024 * 1024, 'a'));
    });
    let inst = await installationAt(declared.port);
    let answer = await order(inst.cookie, 'C');
    expect(answer).toMatchObject({ retSync: 0, outcome: 'answer-too-large' });
    expect(answer.retInfo).toMatch(
      /^La réponse du service d'automate dépasse 64 Ko : la console ne l'a pas lue\./,
    );

    // 10 MB streamed in chunks: the console stops reading and closes the connection long before.
    const total = 10 * 1024 * 1024;
    let written = 0;
    let closedEarly = false;
    const streamed = await automate((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.write('<Automate><RetInfo>');
      const chunk = Buffer.alloc(16 * 1024, 'b');
      const pump = () => {
        while (written < total) {
          if (res.destroyed) return;
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('</RetInfo></Automate>');
      };
      res.on('close', () => (closedEarly = written < total));
      pump();
    });
    inst = await installationAt(streamed.port);
    answer = await order(inst.cookie, 'C');
    expect(answer).toMatchObject({ retSync: 0, outcome: 'answer-too-large' });
    await expect.poll(() => closedEarly).toBe(true);
    expect(written).toBeLessThan(total);
  });

  it('a redirect is not followed: its target receives nothing', async () => {
    const target = await automate(answering(automateAnswer(1, 'Je ne devrais rien recevoir')));
    const redirecting = await automate((_req, res) => {
      res.writeHead(302, { Location: `http://127.0.0.1:${target.port}/ailleurs` });
      res.end();
    });
    const inst = await installationAt(redirecting.port);
    const answer = await order(inst.cookie, 'C');
    expect(answer).toMatchObject({ retSync: 0, outcome: 'redirect' });
    expect(answer.retInfo).toMatch(/redirection \(HTTP 302\), que la console ne suit pas/);
    expect(redirecting.requests).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(target.requests).toHaveLength(0);
  });
});

describe('refusals before any order leaves', () => {
  it('not premium', async () => {
    const peer = await automate(answering(automateAnswer(1, 'OK')));
    const inst = await installationAt(peer.port, { premium: false });
    expect(await order(inst.cookie, 'I')).toEqual({
      retSync: 0,
      retInfo: NOT_PREMIUM_MESSAGE,
      outcome: 'not-premium',
    });
    expect(peer.requests).toHaveLength(0);
    expect(await lastAudit(inst.id)).toMatchObject({
      details: { type: 'I', outcome: 'not-premium', retSync: 0 },
    });
  });

  it('no automate registered', async () => {
    await addInstallation(ctx.db, { syncId: 'NOAUTO01' });
    const cookie = await signIn(ctx.app, 'NOAUTO01');
    expect(await order(cookie, 'R')).toEqual({
      retSync: 0,
      retInfo: NO_AUTOMATE_MESSAGE,
      outcome: 'no-automate',
    });
    expect(NO_AUTOMATE_MESSAGE).toMatch(/^Vous ne disposez pas actuellement du service d'automate/);
  });

  it('an address the policy refuses (checked again at order time): a private one under the default policy', async () => {
    const strict = await testApp(ctx.db); // default policy: public (and loopback for DEMOA001 on the embedded database)
    try {
      const inst = await connectorInstallation(ctx.db, 'PRIVATE01');
      // Registered when AUTOMATE_NETWORKS allowed it; the setting has changed since.
      await ctx.db.query(
        `INSERT INTO automate_registrations (installation_id, ip, port, version, machine_name, reported_at)
         VALUES ($1, '10.0.0.5', 8080, '6.11.23.9', 'SRV', now())`,
        [inst.id],
      );
      const cookie = await signIn(strict, inst.syncId);
      const answer = await order(cookie, 'C', strict);
      expect(answer).toMatchObject({ retSync: 0, outcome: 'address-refused' });
      expect(answer.retInfo).toMatch(
        /^La demande de synchronisation n'a pas été envoyée\. L’adresse 10\.0\.0\.5 est une adresse privée \(10\.0\.0\.0\/8\)/,
      );
      expect(await ordersOf(inst.id)).toEqual([]);
      expect(await lastAudit(inst.id)).toMatchObject({
        details: { outcome: 'address-refused', automate: '10.0.0.5:8080' },
      });
    } finally {
      await strict.close();
    }
  });

  it('a loopback address registered earlier is refused at order time under the default policy, on both databases: the peer receives nothing', async () => {
    const peer = await automate(answering(automateAnswer(1, 'OK')));
    const inst = await installationAt(peer.port); // registered while AUTOMATE_NETWORKS=loopback
    const strict = await testApp(ctx.db);
    try {
      const answer = await order(await signIn(strict, inst.syncId), 'C', strict);
      expect(answer).toMatchObject({ retSync: 0, outcome: 'address-refused' });
      expect(answer.retInfo).toContain(`L’adresse 127.0.0.1 est une adresse de boucle locale (127.0.0.0/8)`);
      expect(peer.requests).toEqual([]);
      expect(await ordersOf(inst.id)).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('an invalid type is a 400 naming the field', async () => {
    const cookie = await signIn(ctx.app, 'NOAUTO01');
    for (const payload of [{ type: 'X' }, {}, { type: 1 }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/sync-automate',
        headers: { cookie },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^Requête invalide\. type : /);
    }
  });
});

describe('an automate silent for over 24 hours', () => {
  it('is still sent the order, and the answer says so first', async () => {
    const peer = await automate(answering(automateAnswer(1, 'Synchronisation lancée.')));
    const inst = await installationAt(peer.port);
    // Last report 30 hours ago: 2025-03-08 09:15 Paris time when now is 2025-03-09 15:15.
    const reported = new Date(Date.now() - 30 * 3600 * 1000);
    await ctx.db.query('UPDATE automate_registrations SET reported_at = $2 WHERE installation_id = $1', [
      inst.id,
      reported,
    ]);
    const answer = await order(inst.cookie, 'C');
    expect(peer.requests).toHaveLength(1);
    expect(answer.retSync).toBe(1);
    const paris = new Intl.DateTimeFormat('fr-FR', {
      timeZone: 'Europe/Paris',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(reported);
    const part = (type: string) => paris.find((p) => p.type === type)?.value;
    expect(answer.retInfo).toMatch(
      new RegExp(
        `^Attention : le service d'automate ne s'est plus signalé depuis 30 heures \\(dernier signal le ` +
          `${part('day')}/${part('month')}/${part('year')} à ${part('hour')}:${part('minute')}, UTC\\+0[12]:00\\) : ` +
          `il est peut-être arrêté\\. La demande lui a tout de même été envoyée\\.\\n\\nSynchronisation lancée\\.$`,
      ),
    );
    expect(await lastAudit(inst.id)).toMatchObject({ details: { outcome: 'accepted', silentHours: 30 } });
  });
});

describe('one order in flight per installation', () => {
  it('two orders at once: exactly one GET, the other answered that one is running', async () => {
    const peer = await automate(answering(automateAnswer(1, 'Synchronisation lancée.'), 400));
    const inst = await installationAt(peer.port);
    const answers = await Promise.all([order(inst.cookie, 'C'), order(inst.cookie, 'I')]);
    expect(peer.requests).toHaveLength(1);
    expect(answers.map((a) => a.outcome).sort()).toEqual(['accepted', 'busy']);
    expect(answers.find((a) => a.outcome === 'busy')).toEqual({
      retSync: 0,
      retInfo: BUSY_MESSAGE,
      outcome: 'busy',
    });
    expect(await ordersOf(inst.id)).toHaveLength(1);
    // Once answered, the next one goes.
    expect((await order(inst.cookie, 'R')).outcome).toBe('accepted');
    expect(peer.requests).toHaveLength(2);
  });

  it('an order left unfinished by a stopped process blocks only until it is older than the timeout', async () => {
    const peer = await automate(answering(automateAnswer(1, 'OK')));
    const inst = await installationAt(peer.port);
    const leftover = (secondsAgo: number) =>
      ctx.db.query(
        `INSERT INTO sync_orders (id, installation_id, type, requested_at, address)
         VALUES (gen_random_uuid(), $1, 'C', $2, '127.0.0.1:1')`,
        [inst.id, new Date(Date.now() - secondsAgo * 1000)],
      );
    await leftover(3);
    expect((await order(inst.cookie, 'C')).outcome).toBe('busy');
    expect(peer.requests).toHaveLength(0);
    await ctx.db.query(`DELETE FROM sync_orders WHERE installation_id = $1`, [inst.id]);
    await leftover(20);
    expect((await order(inst.cookie, 'C')).outcome).toBe('accepted');
    expect((await ordersOf(inst.id)).map((o) => [o.outcome, o.finished])).toEqual([
      ['abandoned', true],
      ['accepted', true],
    ]);
  });
});

describe('rate limit', () => {
  it('at most N orders per installation in the window; the next one is refused and never sent', async () => {
    const limited = await testApp(ctx.db, {
      ...loopback,
      syncOrders: { rateLimit: { max: 3, windowMs: 5 * 60_000 } },
    });
    try {
      const peer = await automate(answering(automateAnswer(1, 'OK')));
      const inst = await connectorInstallation(ctx.db, 'LIMIT01');
      await connectorCall(limited, 'POST', '/automate', inst.token, { port: peer.port, ip: '127.0.0.1' });
      const cookie = await signIn(limited, inst.syncId);
      for (let i = 0; i < 3; i += 1) expect((await order(cookie, 'C', limited)).outcome).toBe('accepted');
      const refused = await order(cookie, 'C', limited);
      expect(refused).toEqual({
        retSync: 0,
        outcome: 'rate-limited',
        retInfo:
          'Trop de demandes de synchronisation : au plus 3 toutes les 5 minutes pour une installation. Réessayez dans 5 minutes.',
      });
      expect(peer.requests).toHaveLength(3);
      // Refused ones do not count: still refused, still 3 sent.
      expect((await order(cookie, 'R', limited)).outcome).toBe('rate-limited');
      expect(peer.requests).toHaveLength(3);
      // Another installation has its own count.
      const other = await connectorInstallation(ctx.db, 'LIMIT02');
      await connectorCall(limited, 'POST', '/automate', other.token, { port: peer.port, ip: '127.0.0.1' });
      expect((await order(await signIn(limited, other.syncId), 'C', limited)).outcome).toBe('accepted');
      // Audited, each with its outcome.
      const audit = await ctx.db.query<{ outcome: string }>(
        `SELECT details->>'outcome' AS outcome FROM audit_log
         WHERE installation_id = $1 AND action = 'sync-automate.request' ORDER BY id`,
        [inst.id],
      );
      expect(audit.map((a) => a.outcome)).toEqual([
        'accepted',
        'accepted',
        'accepted',
        'rate-limited',
        'rate-limited',
      ]);
    } finally {
      await limited.close();
    }
  });
});
