/**
 * The automate's HTTP listener: the legacy sync order is `GET /<base64 of the Automate XML>`,
 * answered with XML. Any other request gets 404. `hang` accepts connections and never answers;
 * `latencyMs` delays each order's answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from './log.ts';
import { orderPayloadOf } from './order-codec.ts';

export interface OrderReply {
  /** The answer document. */
  xml: string;
  /** Called once the exchange is over, `delivered` true when the whole answer was sent. */
  after?: (delivered: boolean) => void;
}

export interface OrderServerOptions {
  port: number;
  host: string;
  log: Logger;
  latencyMs: number;
  hang: boolean;
  /** Decides the answer to a request whose path can be an order. */
  onOrder: (payload: string, from: string) => OrderReply;
}

export interface OrderServer {
  port: number;
  close(): Promise<void>;
}

export async function startOrderServer(options: OrderServerOptions): Promise<OrderServer> {
  const { log } = options;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const answer = (req: IncomingMessage, res: ServerResponse, payload: string) => {
    const reply = options.onOrder(payload, req.socket.remoteAddress ?? '?');
    const body = Buffer.from(reply.xml, 'utf8');
    if (reply.after) {
      const after = reply.after;
      res.on('close', () => after(res.writableFinished));
    }
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', 'content-length': body.length });
    res.end(body);
  };

  const server = createServer((req, res) => {
    if (options.hang) {
      log.info(
        'order',
        `requête de ${req.socket.remoteAddress ?? '?'} acceptée et laissée sans réponse (--hang)`,
      );
      return;
    }
    const payload = req.method === 'GET' ? orderPayloadOf(req.url ?? '') : null;
    if (payload === null) {
      log.debug('http', `${req.method ?? '?'} ${(req.url ?? '').slice(0, 80)} -> 404`);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Introuvable\n');
      return;
    }
    if (options.latencyMs <= 0) {
      answer(req, res, payload);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) answer(req, res, payload);
    }, options.latencyMs);
    timers.add(timer);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;

  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
