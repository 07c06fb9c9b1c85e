/**
 * A scripted stand-in for the console's connector API, for the simulator's own tests only: it
 * checks the bearer token, validates every body with the contract's own schemas (and each record
 * XML with the configuration engine's parseRecord, as the server does), keeps what it receives,
 * serves a configuration with an ETag and an import queue, and can fail chosen routes on demand.
 * Every refused body is kept in `invalid`: a test that ends with it non-empty has found a fault.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRecord } from '@synchro/config-xml';
import {
  parseConnectorRequest,
  ZAutomateReport,
  ZConnectorConfigPatch,
  ZImportRecordsRequest,
  ZImportResult,
  ZTransactionsRequest,
} from '@synchro/contracts';
import type { TImportRecord, TQueuedRecord, TTransaction } from '../src/api-types.ts';
import { offContract } from './openapi-answers.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  ifNoneMatch: string | undefined;
  body: unknown;
}

type Route = 'register' | 'config-get' | 'config-patch' | 'records' | 'queue' | 'result' | 'transactions';

const BASE = '/api/connector/v1';

/** The contract's schema of each route's body. */
const SCHEMAS: Partial<Record<Route, Parameters<typeof parseConnectorRequest>[0]>> = {
  register: ZAutomateReport,
  'config-patch': ZConnectorConfigPatch,
  records: ZImportRecordsRequest,
  result: ZImportResult,
  transactions: ZTransactionsRequest,
};

export class FakeConsole {
  readonly requests: RecordedRequest[] = [];
  readonly registrations: Record<string, unknown>[] = [];
  readonly patches: Record<string, unknown>[] = [];
  readonly recordBatches: TImportRecord[][] = [];
  readonly transactionBatches: TTransaction[][] = [];
  readonly results = new Map<
    string,
    { Etat: number; Log?: string; Fichier?: { Nom: string; Contenu: string } }
  >();
  /** Stored records by IDInterne (Etat 0 ones make the queue). */
  readonly records = new Map<string, TQueuedRecord & { Etat: number }>();
  /** Bodies refused by the contract's schemas: `route: message`. */
  readonly invalid: string[] = [];
  /** Answers of this fake that the OpenAPI document does not allow (tests expect none). */
  readonly offContract: string[] = [];
  configVersion = 7;
  private server: Server | null = null;
  private readonly failures = new Map<Route, number[]>();

  constructor(
    readonly token: string,
    public configXml: string,
  ) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  /** The next calls of `route` answer these statuses, one each, before it works again. */
  failNext(route: Route, statuses: number[]): void {
    this.failures.set(route, [...(this.failures.get(route) ?? []), ...statuses]);
  }

  /** Puts records in the queue, as the console does when an administrator sets them back to 0. */
  enqueue(records: TQueuedRecord[]): void {
    for (const r of records) this.records.set(r.IDInterne, { ...r, Etat: 0 });
  }

  queued(): TQueuedRecord[] {
    return [...this.records.values()].filter((r) => r.Etat === 0);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = undefined;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        return this.json(res, 400, { error: 'invalid-request', message: 'Corps JSON illisible.' });
      }
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    this.requests.push({
      method: req.method ?? '',
      path: path + url.search,
      authorization: req.headers.authorization,
      ifNoneMatch: req.headers['if-none-match'],
      body,
    });
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return this.json(res, 401, {
        error: 'unauthorized',
        message: 'Jeton du connecteur absent ou invalide.',
      });
    }
    const route = this.routeOf(req.method ?? '', path);
    if (route === null) return this.json(res, 404, { error: 'not-found', message: 'Route inconnue.' });
    const failure = this.failures.get(route)?.shift();
    if (failure !== undefined)
      // A scripted failure may be a proxy's (502): not the console's answer, not checked.
      return this.json(res, failure, { error: 'scripted', message: 'Échec prévu par le test.' }, false);
    const b = (body ?? {}) as Record<string, unknown>;
    const schema = SCHEMAS[route];
    if (schema) {
      const checked = parseConnectorRequest(schema, body);
      let message = checked.ok ? null : checked.message;
      if (route === 'records' && checked.ok) {
        (b.records as TImportRecord[]).forEach((r, i) => {
          try {
            parseRecord(r.Enreg);
          } catch (err) {
            message = `records[${i}].Enreg : ${(err as Error).message}`;
          }
        });
      }
      if (message !== null) {
        this.invalid.push(`${route}: ${message}`);
        return this.json(res, 400, { error: 'invalid-request', message });
      }
    }
    switch (route) {
      case 'register':
        this.registrations.push(b);
        return this.json(res, 200, {
          ip: b.ip ?? req.socket.remoteAddress,
          port: b.port,
          registeredAt: new Date().toISOString(),
        });
      case 'config-get':
        if (req.headers['if-none-match'] === `"${this.configVersion}"`) {
          res.writeHead(304, { etag: `"${this.configVersion}"` });
          return void res.end();
        }
        res.writeHead(200, {
          'content-type': 'application/xml; charset=utf-8',
          etag: `"${this.configVersion}"`,
        });
        return void res.end(this.configXml);
      case 'config-patch':
        this.patches.push(b);
        this.configVersion++;
        return this.json(res, 200, { version: this.configVersion });
      case 'records': {
        const records = b.records as TImportRecord[];
        this.recordBatches.push(records);
        let inserted = 0;
        for (const r of records) {
          if (this.records.has(r.IDInterne)) continue;
          inserted++;
          this.records.set(r.IDInterne, r);
        }
        return this.json(res, 200, { inserted, duplicates: records.length - inserted });
      }
      case 'queue': {
        const limit = Number(url.searchParams.get('limit') ?? '100');
        const queue = this.queued()
          .slice(0, limit)
          .map(({ IDInterne, TypeEnreg, RefDoc, DateHeure, NumLigne, TypeElement, Enreg }) => ({
            IDInterne,
            TypeEnreg,
            RefDoc,
            DateHeure,
            NumLigne,
            TypeElement,
            Enreg,
          }));
        return this.json(res, 200, { records: queue });
      }
      case 'result': {
        const id = decodeURIComponent(path.slice(`${BASE}/import-records/`.length, -'/result'.length));
        const record = this.records.get(id);
        if (!record) return this.json(res, 404, { error: 'not-found', message: 'Enregistrement inconnu.' });
        record.Etat = b.Etat as number;
        this.results.set(id, b as { Etat: number });
        return this.json(res, 200, { IDInterne: id, Etat: b.Etat });
      }
      case 'transactions': {
        const transactions = b.transactions as TTransaction[];
        this.transactionBatches.push(transactions);
        return this.json(res, 200, { inserted: transactions.length, duplicates: 0 });
      }
    }
  }

  private routeOf(method: string, path: string): Route | null {
    if (method === 'POST' && path === `${BASE}/automate`) return 'register';
    if (method === 'GET' && path === `${BASE}/configuration`) return 'config-get';
    if (method === 'PATCH' && path === `${BASE}/configuration`) return 'config-patch';
    if (method === 'POST' && path === `${BASE}/import-records`) return 'records';
    if (method === 'GET' && path === `${BASE}/import-records/queue`) return 'queue';
    if (method === 'POST' && /^\/api\/connector\/v1\/import-records\/[^/]+\/result$/.test(path))
      return 'result';
    if (method === 'POST' && path === `${BASE}/transactions`) return 'transactions';
    return null;
  }

  private json(res: ServerResponse, status: number, body: unknown, checked = true): void {
    const req = res.req;
    const why = checked
      ? offContract(req.method ?? '', new URL(req.url ?? '/', 'http://x').pathname, status, body)
      : null;
    if (why) this.offContract.push(why);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

/** Polls `check` until it is true (or fails after `timeoutMs`). */
export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
