/**
 * The one HTTP client of the SPA (spec §7, §8): every request carries the session cookie and
 * forbids caching; writes send JSON with its content type; any non-OK answer becomes an ApiError
 * whose message is `status: text`, text being the body's `message` when the body is JSON, else the
 * raw body, else the status text.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The text part of the message: what the server said, meant for the user. */
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`);
  }
}

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
        const message = (parsed as { message: unknown }).message;
        if (typeof message === 'string' && message) text = message;
      }
    } catch {
      // not JSON: keep the raw body
    }
  }
  return new ApiError(res.status, text || res.statusText);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Sends a request and returns the raw Response once it is known to be OK. */
export async function apiFetch(
  method: HttpMethod,
  url: string,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const init: RequestInit = { method, credentials: 'include', cache: 'no-store', headers };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;
  const res = await fetch(url, init);
  if (!res.ok) throw await errorFromResponse(res);
  return res;
}

/** Sends a request and parses the JSON answer (undefined for an empty body). */
export async function apiRequest<T>(
  method: HttpMethod,
  url: string,
  options: RequestOptions = {},
): Promise<T> {
  const res = await apiFetch(method, url, options);
  const text = await res.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

export const api = {
  get: <T>(url: string, signal?: AbortSignal) => apiRequest<T>('GET', url, signal ? { signal } : {}),
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, { body }),
  put: <T>(url: string, body?: unknown) => apiRequest<T>('PUT', url, { body }),
  patch: <T>(url: string, body?: unknown) => apiRequest<T>('PATCH', url, { body }),
};

/** The user-facing part of an error: the server's text for an ApiError, else the message. */
export function errorDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
