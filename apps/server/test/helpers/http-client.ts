/**
 * Requests to a listening server over real HTTP, each timed and bounded, for the reliability
 * tests (docs/reliability.md): an answer that does not come within `boundMs` is recorded as a
 * hang (status 0), never waited for.
 */
export interface Answer {
  status: number;
  body: string;
  headers: Headers | null;
  /** When the request was sent and answered (Date.now()). */
  sentAt: number;
  answeredAt: number;
  /** The network error, or 'hang' when the bound was reached. */
  failure?: string;
}

export interface RequestOptions {
  method?: string;
  cookie?: string;
  token?: string;
  ifMatch?: string | number;
  json?: unknown;
  boundMs?: number;
}

export async function send(baseUrl: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { origin: baseUrl };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ifMatch !== undefined) headers['if-match'] = `"${options.ifMatch}"`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const sentAt = Date.now();
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
      signal: AbortSignal.timeout(options.boundMs ?? 30_000),
    });
    const body = await res.text();
    return { status: res.status, body, headers: res.headers, sentAt, answeredAt: Date.now() };
  } catch (err) {
    const failure = (err as Error).name === 'TimeoutError' ? 'hang' : String((err as Error).cause ?? err);
    return { status: 0, body: '', headers: null, sentAt, answeredAt: Date.now(), failure };
  }
}

/** Signs in through POST /api/login; the `Cookie` header of the session. */
export async function signInOver(
  baseUrl: string,
  syncId: string,
  password = 'client-secret',
): Promise<string> {
  const res = await send(baseUrl, '/api/login', {
    method: 'POST',
    json: { username: syncId, password },
  });
  const cookie = /synchro_session=[^;]+/.exec(res.headers?.get('set-cookie') ?? '')?.[0];
  if (res.status !== 200 || !cookie) throw new Error(`login ${res.status}: ${res.body}`);
  return cookie;
}

export const isOk = (a: Answer) => a.status >= 200 && a.status < 300;
