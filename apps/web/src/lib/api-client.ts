/**
 * The one HTTP client of the SPA (docs/spec-notes.md, Web: Calls and errors): every request carries
 * the session cookie and forbids caching; writes send JSON with its content type; any non-OK answer
 * becomes an ApiError whose message is `status: text`, text being the body's `message` when the
 * body is JSON, else the raw body, else the status text. OK answers are parsed with their contract
 * schema.
 */
import type { TApiError } from '@synchro/contracts';
import { connectionStore } from './connection-store.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The text part of the message: what the server said, meant for the user. */
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(`${status}: ${detail}`, options);
  }
}

/**
 * The reason of a refused request: the `message` of the body (TApiError), else the body's text,
 * else the status text. Read by hand, not with ZApiError: the first load of /auth carries no zod
 * (docs/web.md, Budget), and a proxy's HTML page or an empty 502 must still give a reason.
 */
async function errorFromResponse(res: Response): Promise<ApiError> {
  let raw = '';
  try {
    raw = await res.text();
  } catch {
    raw = '';
  }
  let text = raw;
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const message: unknown = (parsed as Partial<Record<keyof TApiError, unknown>>).message;
        if (typeof message === 'string' && message) text = message;
      }
    } catch {
      // not JSON: keep the raw body
    }
  }
  return new ApiError(res.status, text || res.statusText);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A contract schema (`Z*` of @synchro/contracts): what an answer must look like. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

/**
 * The schema of an answer, or a loader of it: a loader keeps zod out of a chunk until an OK
 * answer needs parsing (the user query of the login screen's first load; docs/web.md, Budget).
 */
export type SchemaSource<T> = ResponseSchema<T> | (() => Promise<ResponseSchema<T>>);

export interface RequestOptions {
  /** Sent as JSON with its content type. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** A string value longer than this is written into the body one piece at a time. */
const LARGE_STRING_CHARS = 1024 * 1024;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The JSON body of a write. A body holding a string of tens of MB (a record's XML) is built as a
 * Blob, its long strings escaped one megabyte at a time with the page getting the hand back
 * between two pieces: one JSON.stringify of 30 MB held the page for over a second, and a string
 * body of that size blocked it again while the browser copied it for sending.
 */
async function jsonBody(body: unknown): Promise<string | Blob> {
  const large: (readonly string[])[] = [];
  const marker = `__synchro_piece_${Math.random().toString(36).slice(2)}_`;
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof LongText) {
      if (value.length <= LARGE_STRING_CHARS) return value.pieces.join('');
      large.push(value.pieces);
    } else if (typeof value === 'string' && value.length > LARGE_STRING_CHARS) large.push([value]);
    else return value;
    return `${marker}${large.length - 1}`;
  });
  if (large.length === 0) return text;
  const parts: BlobPart[] = [];
  const pieces = text.split(new RegExp(`"${marker}(\\d+)"`));
  for (let i = 0; i < pieces.length; i += 1) {
    if (i % 2 === 0) {
      parts.push(pieces[i]!);
      continue;
    }
    parts.push('"');
    for (const value of large[Number(pieces[i])]!) {
      for (let start = 0; start < value.length;) {
        let end = Math.min(start + LARGE_STRING_CHARS, value.length);
        const last = value.charCodeAt(end - 1);
        if (end < value.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // a pair stays whole
        parts.push(new Blob([JSON.stringify(value.slice(start, end)).slice(1, -1)]));
        start = end;
        await nextTask();
      }
    }
    parts.push('"');
  }
  return new Blob(parts, { type: 'application/json' });
}

/**
 * A long text given as its pieces, never joined in the page: a JSON body writes it as the one
 * string they make, a megabyte at a time (jsonBody). Joining a 30 MB record's XML copied it whole
 * in one task (190–250 ms of CPU on a slow machine); a slice of one of its pieces costs nothing.
 */
export class LongText {
  readonly length: number;
  constructor(readonly pieces: readonly string[]) {
    this.length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  }
  toString(): string {
    return this.pieces.join('');
  }
}

/** Sends a request and returns the raw Response once it is known to be OK. */
export async function apiFetch(
  method: HttpMethod,
  url: string,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // Reads revalidate what the browser kept: the server lets it keep only the answers that repeat
  // (`Cache-Control: private, no-cache` with an ETag: docs/server.md, Compression), which then come
  // back as a 304 without their bytes; every other answer is `no-store` and never kept.
  const init: RequestInit = {
    method,
    credentials: 'include',
    cache: method === 'GET' ? 'no-cache' : 'no-store',
    headers,
  };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = await jsonBody(options.body);
  }
  if (options.signal) init.signal = options.signal;
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (error) {
    // An abort is the caller's choice, not a lost server.
    if (!(error instanceof DOMException && error.name === 'AbortError')) connectionStore.reportFailure();
    throw error;
  }
  if (res.status >= 500) connectionStore.reportFailure();
  else connectionStore.reportAnswer();
  if (!res.ok) throw await errorFromResponse(res);
  return res;
}

/**
 * An answer's text read a megabyte at a time, the page getting the hand back between two: the
 * browser decoded a 30 MB answer (a record's XML) in one task that held the page for 200 ms and
 * more on a slow machine. Decoded as `Response.text()` decodes (UTF-8, a leading BOM dropped).
 */
async function readText(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return res.text();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let sinceYield = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(decoder.decode(value, { stream: true }));
    sinceYield += value.byteLength;
    if (sinceYield >= LARGE_STRING_CHARS) {
      sinceYield = 0;
      await nextTask();
    }
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** The answer's JSON (its text when not JSON, undefined when empty). */
async function readBody(res: Response): Promise<unknown> {
  const text = await readText(res);
  if (!text) return undefined;
  // A long answer is parsed in a task of its own, not after its last piece was read.
  if (text.length > LARGE_STRING_CHARS) await nextTask();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An OK answer that does not match its contract is an error, not data a screen would misread: the
 * user gets a French text, the console the schema's report (a contract drift fails loudly).
 */
async function parseAnswer<T>(
  source: SchemaSource<T>,
  data: unknown,
  res: Response,
  method: HttpMethod,
  url: string,
): Promise<T> {
  const schema = typeof source === 'function' ? await source() : source;
  try {
    return schema.parse(data);
  } catch (cause) {
    console.error(`Réponse hors contrat : ${method} ${url}`, cause);
    throw new ApiError(res.status, `Réponse inattendue du serveur (${method} ${url}).`, { cause });
  }
}

/**
 * Sends a request and reads the answer: parsed with `schema` when given (then typed by it), else
 * `unknown` (an answer the SPA does not read).
 */
export function apiRequest<T>(
  method: HttpMethod,
  url: string,
  options: RequestOptions & { schema: SchemaSource<T> },
): Promise<T>;
export function apiRequest(method: HttpMethod, url: string, options?: RequestOptions): Promise<unknown>;
export async function apiRequest<T>(
  method: HttpMethod,
  url: string,
  options: RequestOptions & { schema?: SchemaSource<T> } = {},
): Promise<T | unknown> {
  const res = await apiFetch(method, url, options);
  const data = await readBody(res);
  return options.schema ? parseAnswer(options.schema, data, res, method, url) : data;
}

interface MethodCall {
  <T>(url: string, options: RequestOptions & { schema: SchemaSource<T> }): Promise<T>;
  (url: string, options?: RequestOptions): Promise<unknown>;
}

const call =
  (method: HttpMethod): MethodCall =>
  (url: string, options?: RequestOptions & { schema?: SchemaSource<unknown> }) =>
    options?.schema
      ? apiRequest(method, url, { ...options, schema: options.schema })
      : apiRequest(method, url, options);

/** A file received from the server: its bytes and the name it should be saved under. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/**
 * The file name of a `Content-Disposition` header: `filename*=UTF-8''…` first (non-ASCII names),
 * else `filename="…"`, else `fallback`. Folder parts are dropped.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    name = plain ? (plain[1] ?? plain[2] ?? '').replace(/\\(.)/g, '$1').trim() : null;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base || fallback;
}

/** `api.get(url, { schema, signal })`, `api.post(url, { body, schema })`… */
export const api = {
  get: call('GET'),
  post: call('POST'),
  put: call('PUT'),
  patch: call('PATCH'),
  /** GET of a text answer (a log), read as text whatever it looks like. */
  text: async (url: string, options: Omit<RequestOptions, 'body'> = {}): Promise<string> => {
    const res = await apiFetch('GET', url, {
      ...options,
      headers: { Accept: 'text/plain', ...options.headers },
    });
    return readText(res);
  },
  /** GET of a file: its bytes and its name (`Content-Disposition`, else `fallbackName`). */
  download: async (
    url: string,
    fallbackName: string,
    options: Omit<RequestOptions, 'body'> = {},
  ): Promise<DownloadedFile> => {
    const res = await apiFetch('GET', url, { ...options, headers: { Accept: '*/*', ...options.headers } });
    const blob = await res.blob();
    return { blob, fileName: fileNameFromDisposition(res.headers.get('Content-Disposition'), fallbackName) };
  },
};

/** An error of the page's own checks whose message is written for the user, in French. */
export class UserFacingError extends Error {}

/**
 * The user-facing part of an error: the server's text for an ApiError, the message of a
 * UserFacingError, else `fallback`. Any other error (the network lost, an answer that does not match
 * its contract) carries the browser's or the parser's English, meant for developers, not for the
 * user.
 */
export function errorDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail || fallback;
  if (error instanceof UserFacingError && error.message) return error.message;
  return fallback;
}
