import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBodyBytes } from './json-body.ts';

function read(chunks: string[], limit: number, contentLength?: string) {
  return new Promise<{ err: (Error & { code?: string }) | null; body?: string }>((resolve) => {
    readBodyBytes(Readable.from(chunks.map((c) => Buffer.from(c))), limit, contentLength, (err, body) =>
      resolve({ err, body: body?.toString('utf8') }),
    );
  });
}

describe('readBodyBytes', () => {
  it('assembles the chunks of a declared length in one buffer', async () => {
    expect(await read(['{"a":', '"é', 'té"}'], 100, String(Buffer.byteLength('{"a":"été"}')))).toEqual({
      err: null,
      body: '{"a":"été"}',
    });
  });

  it('reads a body of unknown length (chunked) within the limit', async () => {
    expect(await read(['[1,', '2]'], 100)).toEqual({ err: null, body: '[1,2]' });
  });

  it('refuses a declared length over the limit before reading (413)', async () => {
    expect((await read(['x'], 10, '11')).err?.code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it('refuses a chunked body that grows past the limit (413)', async () => {
    expect((await read(['12345', '67890', 'x'], 10)).err?.code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it('refuses more or fewer bytes than declared', async () => {
    expect((await read(['123456'], 100, '5')).err?.code).toBe('FST_ERR_CTP_INVALID_CONTENT_LENGTH');
    expect((await read(['1234'], 100, '5')).err?.code).toBe('FST_ERR_CTP_INVALID_CONTENT_LENGTH');
  });
});
