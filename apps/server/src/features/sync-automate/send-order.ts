import { request } from 'node:http';

/**
 * One legacy order on the wire (docs/spec-notes.md, Automate): `GET http://IP:PORT/<payload>` to the
 * registered address, and what came back. Rules (docs/server.md, Sync orders):
 *
 * - the whole exchange (connection, request, headers, body) has `timeoutMs`; then the socket is
 *   destroyed;
 * - a redirect (3xx) is never followed: it is the outcome, its body unread;
 * - at most `maxBytes` of body: a larger Content-Length is refused before any byte of the body
 *   is read; without one, reading stops at the first chunk that goes past the limit (the socket
 *   is destroyed: at most one socket read beyond the limit ever reaches memory);
 * - the address is an IP literal (no name resolution), no proxy, no connection reuse.
 */
export type OrderExchange =
  | { kind: 'answer'; status: number; body: Buffer; contentType: string | undefined }
  | { kind: 'redirect'; status: number }
  | { kind: 'too-large' }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; code: string }
  /** Not HTTP, or cut in the middle. */
  | { kind: 'broken'; detail: string };

export interface OrderTarget {
  ip: string;
  port: number;
}

export interface ExchangeLimits {
  timeoutMs: number;
  maxBytes: number;
}

export function sendOrderRequest(
  target: OrderTarget,
  payload: string,
  limits: ExchangeLimits,
): Promise<OrderExchange> {
  return new Promise((resolve) => {
    let settled = false;
    const req = request({
      host: target.ip,
      port: target.port,
      family: target.ip.includes(':') ? 6 : 4,
      method: 'GET',
      path: `/${payload}`,
      agent: false,
      headers: { Accept: 'application/xml, text/xml', Connection: 'close', 'User-Agent': 'Synchro-Console' },
    });
    const finish = (outcome: OrderExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), limits.timeoutMs);

    req.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? '';
      // The HTTP parser's faults (HPE_…): something answered, but not HTTP.
      if (code.startsWith('HPE_')) finish({ kind: 'broken', detail: "ce n'est pas une réponse HTTP" });
      else finish({ kind: 'unreachable', code });
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      res.on('error', () => finish({ kind: 'broken', detail: 'réponse interrompue' }));
      res.on('aborted', () => finish({ kind: 'broken', detail: 'réponse interrompue' }));
      if (status >= 300 && status < 400) return finish({ kind: 'redirect', status });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) return finish({ kind: 'too-large' });
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) finish({ kind: 'too-large' });
        else chunks.push(chunk);
      });
      res.on('end', () =>
        finish({
          kind: 'answer',
          status,
          body: Buffer.concat(chunks),
          contentType: res.headers['content-type'],
        }),
      );
    });
    req.end();
  });
}

const LATIN_CHARSETS = /^(?:iso-8859-1|iso-8859-15|latin-?1|windows-1252|cp1252)$/i;

/**
 * The text of an answer: UTF-8 (the simulator's, and XML's default), unless the Content-Type's
 * charset or the XML declaration names a Latin one; bytes that are not UTF-8 are read as
 * Windows-1252 rather than refused (an older Windows service may send them undeclared).
 */
export function answerText(body: Buffer, contentType: string | undefined): string {
  const fromHeader = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1];
  const fromDeclaration = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w-]+)["']/.exec(
    body.subarray(0, 200).toString('latin1'),
  )?.[1];
  const declared = fromHeader ?? fromDeclaration;
  if (!declared || !LATIN_CHARSETS.test(declared)) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      // falls through to Windows-1252
    }
  }
  return new TextDecoder('windows-1252').decode(body);
}
