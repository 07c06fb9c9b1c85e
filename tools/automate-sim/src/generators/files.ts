/**
 * Small but valid files the GED records and import results carry, made here so the simulator
 * needs nothing from outside: a one-page PDF (Helvetica text, exact cross-reference table) and an
 * RGB PNG (zlib-compressed rows, CRC-checked chunks).
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Random } from '../random.ts';

/** A PDF string literal of `text` in WinAnsi (Latin-1 here), with `( ) \` escaped. */
function pdfString(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 63;
    const byte = c <= 0xff ? ch : ch === '’' ? "'" : ch === 'œ' ? 'oe' : '?';
    out += byte === '(' || byte === ')' || byte === '\\' ? `\\${byte}` : byte;
  }
  return `(${out})`;
}

/** A one-page A4 PDF showing `title` and then `lines`. */
export function minimalPdf(title: string, lines: readonly string[]): Buffer {
  const content = [
    'BT',
    '/F1 16 Tf',
    '56 780 Td',
    `${pdfString(title)} Tj`,
    '/F1 11 Tf',
    '0 -28 Td',
    '14 TL',
    ...lines.map((l) => `${pdfString(l)} '`),
    'ET',
  ].join('\n');
  const contentBytes = Buffer.byteLength(content, 'latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${contentBytes} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) pdf += `${String(o).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/** A `width`×`height` RGB PNG: a gradient between two random colours, like a tiny photo. */
export function minimalPng(rng: Random, width = 32, height = 24): Buffer {
  const from = [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
  const to = [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
  const rows = Buffer.alloc(height * (1 + width * 3));
  let p = 0;
  for (let y = 0; y < height; y++) {
    rows[p++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height - 2 || 1);
      for (let c = 0; c < 3; c++) {
        rows[p++] = Math.round((from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t);
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // compression
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
