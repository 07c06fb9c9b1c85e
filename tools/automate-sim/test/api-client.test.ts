import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiCallError, ConnectorApiClient } from '../src/api-client.ts';
import { createLogger } from '../src/log.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A console that answers every request with `status` and `body`. */
async function consoleAnswering(status: number, body: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function client(base: string) {
  return new ConnectorApiClient({
    server: base,
    token: 'jeton-de-test',
    log: createLogger({ sink: () => {} }),
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
}

/** A console that answers the given statuses in turn (with their headers), then 200. */
async function consoleAnsweringInTurn(
  answers: { status: number; headers?: Record<string, string> }[],
): Promise<{ base: string; times: number[] }> {
  const times: number[] = [];
  server = createServer((_req, res) => {
    times.push(Date.now());
    const next = answers.shift();
    res.writeHead(next?.status ?? 200, { 'content-type': 'application/json', ...next?.headers });
    res.end(
      next ? '{"error":"server-busy","message":"Le serveur traite déjà…"}' : '{"inserted":1,"duplicates":0}',
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, times };
}

describe('the connector API client tries again when the console says so', () => {
  const retrying = (base: string) =>
    new ConnectorApiClient({
      server: base,
      token: 'jeton-de-test',
      log: createLogger({ sink: () => {} }),
      retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
    });

  it('503 server-busy: the same request again after its Retry-After, even beyond the longest delay', async () => {
    const { base, times } = await consoleAnsweringInTurn([{ status: 503, headers: { 'retry-after': '1' } }]);
    expect(await retrying(base).postTransactions([])).toEqual({ inserted: 1, duplicates: 0 });
    expect(times).toHaveLength(2);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(950);
  });

  it('507 (storage quota full): no retry, the error says why', async () => {
    const { base, times } = await consoleAnsweringInTurn([{ status: 507 }, { status: 507 }]);
    const error = await retrying(base)
      .postTransactions([])
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBe(507);
    expect(times).toHaveLength(1);
  });
});

describe('the connector API client reads answers with the contract', () => {
  it('gives back an answer that matches its schema', async () => {
    const api = client(await consoleAnswering(200, '{"inserted":2,"duplicates":1}'));
    expect(await api.postTransactions([])).toEqual({ inserted: 2, duplicates: 1 });
  });

  it('refuses an answer that drifted from the contract, naming the field', async () => {
    const api = client(await consoleAnswering(200, '{"inserted":"deux","duplicates":0}'));
    const error = await api.postTransactions([]).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as Error).message).toMatch(/^POST \/transactions : réponse inattendue \(inserted : /);
  });

  it('refuses an answer that is not JSON', async () => {
    const api = client(await consoleAnswering(200, '<html>proxy</html>'));
    await expect(api.readImportQueue()).rejects.toThrow(
      /GET \/import-records\/queue\?limit=\d+ : réponse illisible \(JSON attendu\)/,
    );
  });

  it('refuses a queue answer without its records', async () => {
    const api = client(await consoleAnswering(200, '{}'));
    await expect(api.readImportQueue()).rejects.toThrow(/réponse inattendue \(records : /);
  });
});

describe('the answers the client is tested against follow the console’s OpenAPI document', () => {
  it('finds an answer that drifted from the document, naming the field', async () => {
    const { offContract } = await import('./openapi-answers.ts');
    const path = '/api/connector/v1/import-records/ID1/result';
    expect(offContract('POST', path, 200, { IDInterne: 'ID1', Etat: 1 })).toBeNull();
    expect(offContract('POST', path, 200, { ok: true })).toMatch(/IDInterne/);
    expect(offContract('POST', '/api/connector/v1/transactions', 200, { inserted: 1 })).toMatch(/duplicates/);
    expect(
      offContract('POST', '/api/connector/v1/transactions', 507, { error: 'x', message: 'm' }),
    ).toBeNull();
    expect(offContract('GET', '/api/connector/v1/nowhere', 200, {})).toMatch(/route absente/);
  });
});
