import { afterEach, describe, expect, it, vi } from 'vitest';
import { ZServerIp } from '@synchro/contracts';
import {
  ApiError,
  LongText,
  UserFacingError,
  api,
  errorDetail,
  fileNameFromDisposition,
} from './api-client.ts';

function mockFetch(response: Response) {
  const fn = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fn);
  return fn;
}

function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends credentials, forbids caching and posts JSON with its content type', async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ ok: 1 }), { status: 200 }));
    await expect(api.post('/api/login', { body: { username: 'A', password: 'b' } })).resolves.toEqual({
      ok: 1,
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/login');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', cache: 'no-store' });
    expect((init!.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init!.body).toBe('{"username":"A","password":"b"}');
  });

  it('sends no body nor content type on reads', async () => {
    const fetchMock = mockFetch(new Response('{"ip":"1.2.3.4"}', { status: 200 }));
    await expect(api.get('/api/server-ip')).resolves.toEqual({ ip: '1.2.3.4' });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBeUndefined();
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect(init).toMatchObject({ method: 'GET', credentials: 'include', cache: 'no-cache' });
  });

  it('returns undefined for an empty body', async () => {
    mockFetch(new Response(null, { status: 204 }));
    await expect(api.post('/api/logout')).resolves.toBeUndefined();
  });

  it('turns a JSON error into "status: message" and keeps the status', async () => {
    mockFetch(new Response(JSON.stringify({ message: 'Identifiants incorrects' }), { status: 401 }));
    const error = await api.post('/api/login', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: Identifiants incorrects');
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).detail).toBe('Identifiants incorrects');
  });

  it('uses the raw body when it is not JSON (or JSON without message)', async () => {
    mockFetch(new Response('Passerelle indisponible', { status: 502 }));
    await expect(api.get('/api/dashboard')).rejects.toThrow('502: Passerelle indisponible');
    mockFetch(new Response('{"error":"x"}', { status: 500 }));
    await expect(api.get('/api/dashboard')).rejects.toThrow('500: {"error":"x"}');
  });

  it('uses the status text when the body is empty', async () => {
    mockFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(api.get('/api/dashboard')).rejects.toThrow('503: Service Unavailable');
  });

  it('parses an OK answer with its contract schema', async () => {
    mockFetch(new Response('{"ip":"203.0.113.7","extra":true}', { status: 200 }));
    const answer = await api.get('/api/server-ip', { schema: ZServerIp });
    expect(answer).toEqual({ ip: '203.0.113.7' });
  });

  it('reads a long answer a megabyte at a time, the page getting the hand back, decoded as text() decodes', async () => {
    // 3 MB of JSON in 64 KB chunks, a leading BOM, a two-byte character cut between two chunks.
    const value = { xml: `<a>${'é'.repeat(600_000)}${'x'.repeat(1_900_000)}</a>` };
    const bytes = new TextEncoder().encode(`\uFEFF${JSON.stringify(value)}`);
    const chunk = 64 * 1024 + 1;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const from = pulled * chunk;
        if (from >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(from, from + chunk));
        pulled += 1;
      },
    });
    mockFetch(new Response(body, { status: 200 }));
    const timers: number[] = [];
    const tick = () => {
      timers.push(pulled);
      if (timers.length < 200) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const answer = await api.get('/api/sync-history/1/xml');
    expect(answer).toEqual(value);
    // Timers ran while the chunks were being read, not only once the whole answer was in.
    const chunks = Math.ceil(bytes.length / chunk);
    expect(timers.filter((at) => at > 0 && at < chunks).length).toBeGreaterThanOrEqual(2);
  });

  it('an answer that does not match its contract is an ApiError, reported in the console', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch(new Response('{"address":"203.0.113.7"}', { status: 200 }));
    const error = await api.get('/api/server-ip', { schema: ZServerIp }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe('Réponse inattendue du serveur (GET /api/server-ip).');
    expect(consoleError).toHaveBeenCalledWith('Réponse hors contrat : GET /api/server-ip', expect.anything());
    consoleError.mockRestore();
  });

  it('loads a lazy schema only for an OK answer', async () => {
    const load = vi.fn(async () => ZServerIp);
    mockFetch(new Response(JSON.stringify({ message: 'Non connecté' }), { status: 401 }));
    await expect(api.get('/api/server-ip', { schema: load })).rejects.toThrow('401: Non connecté');
    expect(load).not.toHaveBeenCalled();
    mockFetch(new Response('{"ip":"1.2.3.4"}', { status: 200 }));
    await expect(api.get('/api/server-ip', { schema: load })).resolves.toEqual({ ip: '1.2.3.4' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("errorDetail gives the server text, a page check's message, else the French fallback", () => {
    expect(errorDetail(new ApiError(429, 'Réessayez dans 15 min'), 'x')).toBe('Réessayez dans 15 min');
    expect(errorDetail(new ApiError(502, ''), 'Échec')).toBe('Échec');
    expect(errorDetail(new UserFacingError('Document illisible'), 'x')).toBe('Document illisible');
    // The network lost (fetch's TypeError) or an answer off its contract: English for developers.
    expect(errorDetail(new TypeError('Failed to fetch'), 'Échec')).toBe('Échec');
    expect(errorDetail(new Error('Expected string, received number'), 'Échec')).toBe('Échec');
    expect(errorDetail('??', 'Identifiants incorrects')).toBe('Identifiants incorrects');
  });

  it('reads a text answer as text, even when it looks like JSON', async () => {
    const fetchMock = mockFetch(new Response('42', { status: 200 }));
    await expect(api.text('/api/sync-history/A/log')).resolves.toBe('42');
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init).toMatchObject({ method: 'GET', credentials: 'include', cache: 'no-cache' });
    expect((init.headers as Record<string, string>).Accept).toBe('text/plain');
  });

  it('downloads a file with the name of its Content-Disposition, else the default name', async () => {
    mockFetch(
      new Response('PDF', {
        status: 200,
        headers: {
          'Content-Disposition': `attachment; filename="Devis_e.pdf"; filename*=UTF-8''Devis%20%C3%A9t%C3%A9.pdf`,
        },
      }),
    );
    const file = await api.download('/api/sync-history/A/file', 'download.xml');
    expect(file.fileName).toBe('Devis été.pdf');
    expect(file.blob.size).toBe(3);
    mockFetch(new Response('<x/>', { status: 200 }));
    await expect(api.download('/f', 'download.xml')).resolves.toMatchObject({ fileName: 'download.xml' });
    mockFetch(new Response(JSON.stringify({ message: 'Fichier absent' }), { status: 404 }));
    await expect(api.download('/f', 'download.xml')).rejects.toMatchObject({
      status: 404,
      detail: 'Fichier absent',
    });
  });

  it('reads the file name of a Content-Disposition header safely', () => {
    expect(fileNameFromDisposition('attachment; filename="DEVIS-0042.pdf"', 'd')).toBe('DEVIS-0042.pdf');
    expect(fileNameFromDisposition('attachment; filename=plain.txt', 'd')).toBe('plain.txt');
    expect(fileNameFromDisposition('attachment; filename="a\\"b.txt"', 'd')).toBe('a"b.txt');
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"', 'd')).toBe('passwd');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E2%82%AC.txt", 'd')).toBe('€.txt');
    expect(fileNameFromDisposition('attachment; filename*=UTF-8\'\'%ZZ; filename="ok.txt"', 'd')).toBe(
      'ok.txt',
    );
    expect(fileNameFromDisposition('attachment', 'download.xml')).toBe('download.xml');
    expect(fileNameFromDisposition(null, 'download.xml')).toBe('download.xml');
  });

  it('writes a LongText as the one string its pieces make, never joining a long one in the page', async () => {
    const fetchMock = mockFetch(new Response('{}', { status: 200 }));
    const content = `${'Q'.repeat(1_200_000)}"é\n${'k'.repeat(900_000)}`;
    const pieces = ['<a>\r\n<b>', content, '</b>😀</a>'];
    const join = vi.spyOn(Array.prototype, 'join');
    await api.put('/api/sync-history/A/xml', { body: { xml: new LongText(pieces), n: 1 } });
    // No join of the pieces themselves (a 2 MB copy in one task).
    expect(join.mock.contexts.some((joined) => joined === pieces)).toBe(false);
    join.mockRestore();
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBeInstanceOf(Blob);
    const text = await blobText(init.body as Blob);
    expect(text).toBe(JSON.stringify({ xml: pieces.join(''), n: 1 }));
    // A short one is a plain string body.
    const again = mockFetch(new Response('{}', { status: 200 }));
    await api.put('/api/sync-history/A/xml', { body: { xml: new LongText(['<a>', 'é', '</a>']) } });
    expect(again.mock.calls[0]![1]!.body).toBe(JSON.stringify({ xml: '<a>é</a>' }));
  });

  it('sends a large JSON body as a Blob of the same text, pairs of surrogates kept whole', async () => {
    const fetchMock = mockFetch(new Response('{}', { status: 200 }));
    // 😀 (two UTF-16 units) straddles the first megabyte boundary of the JSON text.
    const xml = `${'a'.repeat(1024 * 1024 - 9)}😀${'b'.repeat(1_500_000)}`;
    await api.put('/api/sync-history/A/xml', { body: { xml } });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBeInstanceOf(Blob);
    const text = await blobText(init.body as Blob);
    expect(text).toBe(JSON.stringify({ xml }));
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });
});
