/**
 * The connector API v1 client (connector-api.md): bearer token, JSON bodies, retries with
 * backoff on network faults, timeouts, 408/409/425/429 and 5xx. Other answers are final. The
 * token goes in the Authorization header only, never in a log line or an error message.
 */
import {
  parsePayload,
  ZAutomateReportAnswer,
  ZConnectorBatchAnswer,
  ZConnectorConfigPatchAnswer,
  ZImportQueueAnswer,
  type TTransactionsRequest,
} from '@synchro/contracts';
import type { z } from 'zod';
import type { Logger } from './log.ts';
import { DEFAULT_RETRY, withRetry, type RetryPolicy, type RetryableFailure } from './retry.ts';
import {
  MAX_RECORDS_PER_BATCH,
  MAX_TRANSACTIONS_PER_BATCH,
  QUEUE_PAGE_SIZE,
  type TBatchAnswer,
  type TConfigurationPatch,
  type TConfigurationPatchAnswer,
  type TImportRecord,
  type TImportResult,
  type TQueuedRecord,
  type TRegistrationAnswer,
  type TRegistrationBody,
  type TTransaction,
} from './api-types.ts';

export const API_BASE_PATH = '/api/connector/v1';

export class ApiCallError extends Error {
  constructor(
    message: string,
    /** HTTP status, undefined when no answer came. */
    readonly status?: number,
    /** The server's error code (`{ error }`), when it gave one. */
    readonly code?: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);
/**
 * 507: the installation's storage quota is full; trying again changes nothing until an
 * administrator acts (docs/connector-api.md). Every other 5xx, 503 `server-busy` and
 * `unavailable` included, is tried again after its Retry-After.
 */
const FINAL_SERVER_STATUS = new Set([501, 505, 507]);

export function classifyApiError(err: unknown): RetryableFailure {
  if (!(err instanceof ApiCallError)) return { retryable: false };
  if (err.status === undefined) return { retryable: true };
  const retryable =
    RETRYABLE_STATUS.has(err.status) || (err.status >= 500 && !FINAL_SERVER_STATUS.has(err.status));
  return err.retryAfterMs === undefined ? { retryable } : { retryable, retryAfterMs: err.retryAfterMs };
}

export interface ApiClientOptions {
  /** The console's base URL, e.g. https://console.example (a path prefix is kept). */
  server: string;
  token: string;
  log: Logger;
  retry?: RetryPolicy;
  /** Time limit of one attempt. */
  timeoutMs?: number;
  /** Aborts calls in flight and stops retrying (the simulator stops). */
  signal?: AbortSignal;
}

export interface ConfigurationRead {
  text: string;
  /** The ETag's version, without quotes. */
  version: string;
  /** True when the server answered 304 and the cached text was used. */
  notModified: boolean;
}

interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses handed back instead of thrown (e.g. 304). */
  accept?: number[];
}

interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

function retryAfterMs(headers: Headers): number | undefined {
  const v = headers.get('retry-after');
  if (v === null) return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function errorOf(status: number, text: string, headers: Headers): ApiCallError {
  let code: string | undefined;
  let message = `réponse HTTP ${status}`;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') code = body.error;
    if (typeof body.message === 'string') message = `HTTP ${status} : ${body.message}`;
  } catch {
    // not JSON: the status says enough
  }
  return new ApiCallError(message, status, code, retryAfterMs(headers));
}

export class ConnectorApiClient {
  private readonly base: string;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private cachedConfiguration: { text: string; version: string } | null = null;

  constructor(private readonly options: ApiClientOptions) {
    this.base = options.server.replace(/\/+$/, '') + API_BASE_PATH;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** `POST /automate`: registration and heartbeat. */
  async register(body: TRegistrationBody): Promise<TRegistrationAnswer> {
    return this.json('POST', '/automate', ZAutomateReportAnswer, { body });
  }

  /** `GET /configuration`, with If-None-Match of the version read last time. */
  async readConfiguration(): Promise<ConfigurationRead> {
    const cached = this.cachedConfiguration;
    const headers: Record<string, string> = cached ? { 'if-none-match': `"${cached.version}"` } : {};
    const answer = await this.call('GET', '/configuration', { headers, accept: cached ? [304] : [] });
    if (answer.status === 304 && cached) return { ...cached, notModified: true };
    const version = (answer.headers.get('etag') ?? '').replace(/^W\//, '').replace(/"/g, '');
    this.cachedConfiguration = { text: answer.text, version };
    return { text: answer.text, version, notModified: false };
  }

  /** `PATCH /configuration`: the nodes the connector owns. */
  async patchConfiguration(patch: TConfigurationPatch): Promise<TConfigurationPatchAnswer> {
    return this.json('PATCH', '/configuration', ZConnectorConfigPatchAnswer, { body: patch });
  }

  /** `POST /import-records`: one batch (at most MAX_RECORDS_PER_BATCH). */
  async postImportRecords(records: TImportRecord[]): Promise<TBatchAnswer> {
    if (records.length > MAX_RECORDS_PER_BATCH) {
      throw new RangeError(`at most ${MAX_RECORDS_PER_BATCH} records a request`);
    }
    return this.json('POST', '/import-records', ZConnectorBatchAnswer, { body: { records } });
  }

  /** `GET /import-records/queue`: the records to import, oldest first. */
  async readImportQueue(limit = QUEUE_PAGE_SIZE): Promise<TQueuedRecord[]> {
    const answer = await this.json('GET', `/import-records/queue?limit=${limit}`, ZImportQueueAnswer);
    return answer.records;
  }

  /** `POST /import-records/{IDInterne}/result`. */
  async postImportResult(idInterne: string, result: TImportResult): Promise<void> {
    await this.call('POST', `/import-records/${encodeURIComponent(idInterne)}/result`, { body: result });
  }

  /** `POST /transactions`: one batch (at most MAX_TRANSACTIONS_PER_BATCH). */
  async postTransactions(transactions: TTransaction[]): Promise<TBatchAnswer> {
    if (transactions.length > MAX_TRANSACTIONS_PER_BATCH) {
      throw new RangeError(`at most ${MAX_TRANSACTIONS_PER_BATCH} transactions a request`);
    }
    const body: TTransactionsRequest = { transactions };
    return this.json('POST', '/transactions', ZConnectorBatchAnswer, { body });
  }

  /** A call whose answer is read with its contract schema: a drift is an error, not a guess. */
  private async json<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
    const answer = await this.call(method, path, options);
    let data: unknown;
    try {
      data = JSON.parse(answer.text);
    } catch {
      throw new ApiCallError(`${method} ${path} : réponse illisible (JSON attendu)`, answer.status);
    }
    const checked = parsePayload(schema, data);
    if (!checked.ok) {
      const why = checked.issues.map((i) => (i.path ? `${i.path} : ${i.message}` : i.message)).join(' ; ');
      throw new ApiCallError(`${method} ${path} : réponse inattendue (${why})`, answer.status);
    }
    return checked.value;
  }

  private call(method: string, path: string, options: CallOptions): Promise<RawAnswer> {
    const label = `${method} ${path.split('?')[0]}`;
    return withRetry(
      this.retry,
      () => this.once(method, path, options),
      classifyApiError,
      (err, retry, delay) => {
        const why = err instanceof Error ? err.message : String(err);
        this.options.log.warn(
          'api-retry',
          `${label} : ${why} ; nouvel essai ${retry} dans ${Math.round(delay)} ms`,
        );
      },
      this.options.signal,
    );
  }

  private async once(method: string, path: string, options: CallOptions): Promise<RawAnswer> {
    const started = Date.now();
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      accept: 'application/json, application/xml',
      ...options.headers,
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.base + path, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: this.options.signal
          ? AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.options.signal])
          : AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      if (this.options.signal?.aborted) throw new ApiCallError("appel interrompu : le simulateur s'arrête");
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : '';
      throw new ApiCallError(
        timedOut
          ? `pas de réponse en ${this.timeoutMs} ms`
          : `serveur injoignable${cause ? ` (${cause})` : ''}`,
      );
    }
    this.options.log.debug(
      'api',
      `${method} ${path.split('?')[0]} -> ${res.status} (${Date.now() - started} ms)`,
    );
    const accepted = options.accept ?? [];
    if ((res.status >= 200 && res.status < 300) || accepted.includes(res.status)) {
      return { status: res.status, headers: res.headers, text };
    }
    throw errorOf(res.status, text, res.headers);
  }
}
