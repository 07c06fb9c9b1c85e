import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * Real SMTP servers for the tests (smtp-server, nodemailer's own), on 127.0.0.1:
 * - `accept`: takes every message;
 * - `refuse`: answers 550 to every recipient (or `code`, e.g. 451 for a passing refusal), or only
 *   to those of `only`;
 * - `starttls`: offers STARTTLS with a self-signed certificate and refuses any mail before it;
 * - `hang`: takes the envelope, then never answers the message's end;
 * - `slow`: takes every message, answering each step (sender, recipient, end) after `stepMs`;
 * - `auth`: asks for AUTH PLAIN/LOGIN (without TLS here) and takes only `user`/`password`.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The connection was TLS (STARTTLS or implicit). */
  secure: boolean;
}

export interface TestRelay {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Messages the relay has seen the end of (including refused ones) and connections. */
  connections: number;
  close(): Promise<void>;
}

export type RelayMode =
  | { mode: 'accept' }
  | { mode: 'refuse'; code?: number; only?: string[] }
  | { mode: 'starttls' }
  | { mode: 'hang' }
  | { mode: 'slow'; stepMs: number }
  | { mode: 'auth'; user: string; password: string };

/** A self-signed certificate for localhost and 127.0.0.1 (openssl, in a temporary folder). */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startRelay(
  options: RelayMode,
  tls?: { key: string; cert: string },
): Promise<TestRelay> {
  const received: ReceivedMail[] = [];
  const relay = { connections: 0 };
  const hanging: (() => void)[] = [];
  const later = (callback: () => void) =>
    options.mode === 'slow' ? void setTimeout(callback, options.stepMs) : callback();
  const server = new SMTPServer({
    authOptional: options.mode !== 'auth',
    allowInsecureAuth: options.mode === 'auth',
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands:
      options.mode === 'starttls' ? ['AUTH'] : options.mode === 'auth' ? ['STARTTLS'] : ['AUTH', 'STARTTLS'],
    onAuth(auth, _session, callback) {
      if (options.mode === 'auth' && auth.username === options.user && auth.password === options.password) {
        callback(null, { user: auth.username });
        return;
      }
      callback(new Error('5.7.8 Authentication credentials invalid'));
    },
    ...(options.mode === 'starttls' && tls ? { key: tls.key, cert: tls.cert } : {}),
    logger: false,
    onConnect(_session, callback) {
      relay.connections += 1;
      callback();
    },
    onMailFrom(_address, session, callback) {
      if (options.mode === 'starttls' && !session.secure) {
        const err = new Error('5.7.0 Must issue a STARTTLS command first') as Error & {
          responseCode: number;
        };
        err.responseCode = 530;
        callback(err);
        return;
      }
      later(() => callback());
    },
    onRcptTo(address, _session, callback) {
      if (options.mode === 'refuse' && (!options.only || options.only.includes(address.address))) {
        const code = options.code ?? 550;
        const err = new Error(
          `${code === 550 ? '5.1.1' : '4.7.1'} <${address.address}>: Recipient address rejected: ${code === 550 ? 'User unknown' : 'Try again later'}`,
        ) as Error & { responseCode: number };
        err.responseCode = code;
        callback(err);
        return;
      }
      later(() => callback());
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (options.mode === 'hang') {
          hanging.push(() => callback());
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
        });
        later(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    get connections() {
      return relay.connections;
    },
    async close() {
      for (const release of hanging) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A header of a raw message, its MIME encoded words (=?UTF-8?Q/B?…?=) decoded. */
export function header(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return null;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QBqb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) => {
      if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text
        .replace(/_/g, ' ')
        .replace(/=([0-9A-Fa-f]{2})/g, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    });
}
