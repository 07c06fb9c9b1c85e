import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { minimalPdf, minimalPng } from '../src/generators/files.ts';
import { Random } from '../src/random.ts';

describe('minimalPdf', () => {
  const pdf = minimalPdf("Bon d'intervention INT123456", [
    'Client : Hôtel des Cèdres (Chambéry)',
    'Travaux réalisés \\ terminés',
  ]);
  const text = pdf.toString('latin1');

  it('is a PDF whose cross-reference table points at each object', () => {
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const entries = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(entries).toHaveLength(5);
    entries.forEach((offset, i) => expect(text.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`));
    expect(text).toContain('/Size 6 /Root 1 0 R');
  });

  it('declares the exact length of its content stream and escapes its strings', () => {
    const m = /<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/.exec(text);
    expect(m).not.toBeNull();
    expect(Buffer.byteLength(m?.[2] ?? '', 'latin1')).toBe(Number(m?.[1]));
    expect(text).toContain('(Client : H\xf4tel des C\xe8dres \\(Chamb\xe9ry\\))');
    expect(text).toContain('(Travaux r\xe9alis\xe9s \\\\ termin\xe9s)');
  });
});

describe('minimalPng', () => {
  const png = minimalPng(new Random(7), 20, 10);

  function chunks(buf: Buffer) {
    const out: { type: string; data: Buffer; crcOk: boolean }[] = [];
    let p = 8;
    while (p < buf.length) {
      const length = buf.readUInt32BE(p);
      const type = buf.toString('ascii', p + 4, p + 8);
      const data = buf.subarray(p + 8, p + 8 + length);
      const crc = buf.readUInt32BE(p + 8 + length);
      out.push({ type, data, crcOk: crc32(buf.subarray(p + 4, p + 8 + length)) >>> 0 === crc });
      p += 12 + length;
    }
    return out;
  }

  it('is a PNG with valid chunks, the asked size and a full image', () => {
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const list = chunks(png);
    expect(list.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(list.every((c) => c.crcOk)).toBe(true);
    const ihdr = list[0]?.data as Buffer;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([20, 10, 8, 2]);
    expect(inflateSync(list[1]?.data as Buffer).length).toBe(10 * (1 + 20 * 3));
  });

  it('is the same image for the same seed', () => {
    expect(minimalPng(new Random(7), 20, 10)).toEqual(png);
    expect(minimalPng(new Random(8), 20, 10)).not.toEqual(png);
  });
});
