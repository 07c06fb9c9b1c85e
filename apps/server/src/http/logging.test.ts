import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../paths.ts';
import { loggerOptions, maskSecrets } from './logging.ts';

/** One line logged through fastify's logger as the server configures it, parsed. */
function logged(object: Record<string, unknown>): Record<string, unknown> {
  let line = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      line += chunk.toString();
      done();
    },
  });
  const app = Fastify({ logger: loggerOptions('info', stream) });
  app.log.info(object, 'ligne');
  return JSON.parse(line) as Record<string, unknown>;
}

describe('log lines', () => {
  it('mask passwords, client ids, configurations and connector tokens on the line and one level down, and the headers’ cookies', () => {
    const err = Object.assign(new Error('échec'), { password: 'mot-de-passe-3' });
    const object = {
      password: 'mot-de-passe-1',
      clientId: 'client-secret-1',
      nested: { connectorToken: 'jeton-1', ConfigConnecteur: '<xml/>', kept: 1 },
      user: { clientId: 'client-secret-2', syncId: 'ABC' },
      headers: { cookie: 'synchro_session=abc', authorization: 'Bearer x', accept: '*/*' },
      err,
    };
    const line = logged(object);
    const text = JSON.stringify(line);
    for (const secret of ['mot-de-passe', 'client-secret', 'jeton-1', '<xml/>', 'synchro_session', 'Bearer'])
      expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      password: '[masqué]',
      clientId: '[masqué]',
      nested: { connectorToken: '[masqué]', ConfigConnecteur: '[masqué]', kept: 1 },
      user: { clientId: '[masqué]', syncId: 'ABC' },
      headers: { cookie: '[masqué]', authorization: '[masqué]', accept: '*/*' },
      err: { message: 'échec', password: '[masqué]' },
    });
    expect((line.err as { stack: string }).stack).toContain('échec');
    // The caller's object is left as it was.
    expect(object.password).toBe('mot-de-passe-1');
    expect(object.nested.connectorToken).toBe('jeton-1');
    expect(err.password).toBe('mot-de-passe-3');
  });

  it('keep an object without secrets as it is, without copying it (the request line)', () => {
    const line = { method: 'GET', route: '/api/user', status: 200, nested: { a: 1 } };
    expect(maskSecrets(line)).toBe(line);
  });

  it('mask a secret bound to a child logger at its top level', () => {
    let out = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const app = Fastify({ logger: loggerOptions('info', stream) });
    app.log.child({ clientId: 'client-secret-3' }).info('ligne');
    expect(out).not.toContain('client-secret-3');
    expect(out).toContain('"clientId":"[masqué]"');
  });

  // pino does not run formatters.log on a child's bindings: maskSecrets reaches an object bound
  // to a child logger only at its top level (redact paths). No code binds anything (fastify binds
  // reqId): this keeps it so.
  it('no server code binds values to a child logger', () => {
    const files = readdirSync(join(SERVER_ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    const binding = files.filter((f) =>
      /\blog(?:ger)?\.child\(/.test(readFileSync(join(SERVER_ROOT, 'src', f), 'utf8')),
    );
    expect(binding).toEqual([]);
  });
});
