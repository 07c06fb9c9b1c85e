import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * The secrets scan of the test run: every app built by the helpers hands its answers (status,
 * headers, body) and its log lines to a collector, which looks in each for every secret the
 * tests created (client ids, connector tokens, session tokens, the configuration's passwords).
 * At the end of each test file the collector writes what it saw to
 * `reports/captured/<db>-<file>.json` (counts and findings, never the secret itself);
 * `scripts/scan-secrets.mjs` reads them all after the run and fails on any finding.
 *
 * An answer that must carry a secret is allowed by route and kind, never by pattern:
 * ALLOWED below.
 */

export type SecretKind =
  | 'client-id'
  | 'connector-token'
  | 'session-token'
  | 'config-secret'
  | 'oauth-refresh-token'
  | 'oauth-access-token';

/** Routes that give a secret back by design (docs/connector-api.md, docs/security.md). */
export const ALLOWED: readonly { route: string; kind: SecretKind; where: 'body' | 'set-cookie' }[] = [
  // The connector reads its ConfigConnecteur byte for byte, passwords included.
  { route: 'GET /api/connector/v1/configuration', kind: 'config-secret', where: 'body' },
  // The session cookie is set by the sign-in.
  { route: 'POST /api/login', kind: 'session-token', where: 'set-cookie' },
  // The connector gets the drive's short-lived access token (never the refresh token).
  { route: 'GET /api/connector/v1/drive/access-token', kind: 'oauth-access-token', where: 'body' },
];

export interface Finding {
  kind: SecretKind;
  /** `answer body`, `answer header <name>` or `log`. */
  where: string;
  route: string;
  status?: number;
  /** The text around the secret, the secret itself replaced by `<secret>`. */
  excerpt: string;
}

/** Shorter values (like `0`) would be found everywhere: they are not checked. */
const MIN_SECRET_LENGTH = 6;

/** Where in `text` a registered secret appears, as findings (pure: the scanner's core). */
export function findSecrets(
  text: string,
  secrets: ReadonlyMap<string, SecretKind>,
  context: { route: string; where: string; status?: number },
): Finding[] {
  const out: Finding[] = [];
  for (const [value, kind] of secrets) {
    const at = text.indexOf(value);
    if (at < 0) continue;
    const allowed = ALLOWED.some(
      (a) =>
        a.route === context.route &&
        a.kind === kind &&
        (a.where === 'body' ? context.where === 'answer body' : context.where === 'answer header set-cookie'),
    );
    if (allowed) continue;
    const excerpt = text.slice(Math.max(0, at - 60), at + value.length + 60).replaceAll(value, '<secret>');
    out.push({ kind, ...context, excerpt });
  }
  return out;
}

export class SecretCollector {
  readonly secrets = new Map<string, SecretKind>();
  readonly findings: Finding[] = [];
  answers = 0;
  logLines = 0;

  /** Forgets everything: the test files share one collector when they share a process. */
  reset(): void {
    this.secrets.clear();
    this.findings.length = 0;
    this.answers = 0;
    this.logLines = 0;
  }

  register(value: string | undefined | null, kind: SecretKind): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.secrets.set(value, kind);
  }

  answer(route: string, status: number, headers: Record<string, unknown>, body: string): void {
    this.answers += 1;
    if (this.secrets.size === 0) return;
    this.findings.push(...findSecrets(body, this.secrets, { route, where: 'answer body', status }));
    for (const [name, value] of Object.entries(headers)) {
      const text = Array.isArray(value) ? value.join('\n') : String(value);
      this.findings.push(
        ...findSecrets(text, this.secrets, { route, where: `answer header ${name}`, status }),
      );
    }
  }

  log(line: string): void {
    this.logLines += 1;
    if (this.secrets.size === 0) return;
    let route = '';
    try {
      const entry = JSON.parse(line) as { req?: { method?: string; url?: string } };
      route = entry.req ? `${entry.req.method} ${entry.req.url}` : '';
    } catch {
      // Not JSON: the line is scanned as it is.
    }
    this.findings.push(...findSecrets(line, this.secrets, { route, where: 'log' }));
  }

  /** A log stream for the app (pino writes one JSON line per call). */
  logStream(): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        for (const line of chunk.toString().split('\n')) if (line) this.log(line);
        done();
      },
    });
  }

  /** Captures every answer of `app` (to call before `ready()`). */
  watch(app: FastifyInstance): void {
    app.addHook('onSend', async (request, reply, payload) => {
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('latin1') : '';
      // HEAD runs the GET handler (its body is dropped after this hook): the GET's rules apply.
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const route = `${method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
      this.answer(route, reply.statusCode, reply.getHeaders(), body);
      return payload;
    });
  }

  report(file: string) {
    return {
      file,
      answers: this.answers,
      logLines: this.logLines,
      secrets: this.secrets.size,
      findings: this.findings,
    };
  }
}

/** The collector of the current test file: emptied before each file by test/setup-secret-capture.ts. */
export const capture = new SecretCollector();

const REPORTS = join(dirname(fileURLToPath(import.meta.url)), '../../../../reports/captured');

/** Writes what `capture` saw in the test file at `file` (nothing when it saw nothing). */
export function writeCaptureReport(file: string): void {
  if (capture.answers === 0 && capture.logLines === 0) return;
  mkdirSync(REPORTS, { recursive: true });
  const db = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const name = `${db}-${basename(file).replace(/\W+/g, '_')}-${process.pid}.json`;
  writeFileSync(join(REPORTS, name), JSON.stringify(capture.report(file), null, 1));
}
