import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A scripted automate for the order tests: a node:http server on 127.0.0.1 that records every
 * request it receives and answers as the test says (docs/server.md, Sync orders).
 */
export interface ScriptedAutomate {
  port: number;
  /** Raw request targets received (`/<base64>`), in order. */
  requests: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function listen(server: Server | ReturnType<typeof createTcpServer>, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function scriptedAutomate(handler: Handler, host = '127.0.0.1'): Promise<ScriptedAutomate> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, host);
  return {
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The XML answer of a real automate service. */
export function automateAnswer(retSync: number | string, retInfo: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Automate><RetSync>${retSync}</RetSync><RetInfo>${retInfo}</RetInfo></Automate>`;
}

/** A handler answering `body` (200, XML) after `delayMs`. */
export function answering(body: string, delayMs = 0): Handler {
  return (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' });
      res.end(body);
    }, delayMs);
  };
}

/** A TCP server that answers anything with bytes that are not HTTP. */
export async function notHttpPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createTcpServer((socket) => {
    socket.on('data', () => socket.end('HELLO FROM SOMETHING ELSE\r\n\r\n'));
    socket.on('error', () => {});
  });
  const port = await listen(server, '127.0.0.1');
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port of 127.0.0.1 nobody listens on (taken, then freed). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server, '127.0.0.1');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
