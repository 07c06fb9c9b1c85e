import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors.ts';
import type { ExportSlots } from '../domain/export-slots.ts';
import { displayClock } from '../time/display-clock.ts';
import { attachmentDisposition } from './download.ts';

/**
 * CSV answers that Excel opens right in French: UTF-8 with a byte order mark, `;` between cells,
 * CRLF between rows, every text cell quoted, and a text that a spreadsheet would run as a formula
 * prefixed with `'` (formula injection): see looksLikeFormula.
 */

export type CsvCell = string | number;

/**
 * What Excel and LibreOffice skip before they look for a formula: blanks of every kind (space,
 * tab, CR, LF, no-break and narrow no-break spaces, ideographic space…), other controls, and
 * invisible format characters (zero widths, byte order mark, bidirectional controls).
 */
const SKIPPED_START = /^[\s\p{Cc}\p{Cf}\p{Z}]+/u;
/**
 * A formula's first character, once folded by NFKC (which turns the full-width ＝ ＋ － ＠ and the
 * small ﹦ ﹢ ﹣ ﹫ into = + - @, as an Asian input method or a spreadsheet's own conversion may):
 * `=`, `+`, `-`, `@`, and the minus sign U+2212.
 */
const FORMULA_FIRST = /^[=+\-@\u2212]/;

/**
 * Whether a spreadsheet could read `text` as a formula: its first character after what it skips is
 * a formula start, or it starts with a tab or a line break at all (OWASP's list).
 */
export function looksLikeFormula(text: string): boolean {
  if (/^[\t\r\n]/.test(text)) return true;
  const first = [...text.replace(SKIPPED_START, '').slice(0, 2)][0];
  return first !== undefined && FORMULA_FIRST.test(first.normalize('NFKC'));
}

export function csvCell(value: CsvCell): string {
  if (typeof value === 'number') return String(value);
  const text = looksLikeFormula(value) ? `'${value}` : value;
  return text.includes('"') ? `"${text.replace(/"/g, '""')}"` : `"${text}"`;
}

export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(';')}\r\n`;
}

/**
 * Streams a CSV file: the header row, then each batch of rows as it comes (the source reads the
 * database batch by batch; the socket's back-pressure pauses it, so memory stays flat).
 */
export function sendCsv(
  reply: FastifyReply,
  fileName: string,
  headers: readonly string[],
  batches: AsyncIterable<readonly (readonly CsvCell[])[]>,
): FastifyReply {
  async function* chunks() {
    yield `\uFEFF${csvRow(headers)}`;
    for await (const rows of batches) {
      let chunk = '';
      for (const row of rows) chunk += csvRow(row);
      yield chunk;
    }
  }
  void reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', attachmentDisposition(fileName))
    .header('Cache-Control', 'no-store');
  return reply.send(Readable.from(chunks(), { objectMode: false }));
}

/** Thrown when a client went away while its export waited for a place: nothing is read for it. */
const clientGone = () => new AppError(499, 'Export abandonné : la connexion a été fermée.', 'client-closed');

/**
 * Waits for one of the installation's export places (ExportSlots: 429 when too many wait) and
 * holds it until the answer is over: sent whole, or its connection gone. The connection is
 * watched from the start: one closed while it waited gives its place back at once, and its
 * export does not run (else closing requests in a loop would start exports beyond the places).
 */
export async function holdExportSlot(
  slots: ExportSlots,
  installationId: string,
  connection: { once(event: 'close', listener: () => void): unknown },
): Promise<void> {
  let closed = false;
  let free: (() => void) | null = null;
  connection.once('close', () => {
    closed = true;
    free?.();
  });
  free = await slots.acquire(installationId);
  if (closed) {
    free();
    throw clientGone();
  }
}

/** `historique-importation-2025-11-14.csv`: the name and the day of the export in the display zone. */
export function csvFileName(prefix: string, now: Date, zone: string): string {
  const [day, month, year] = displayClock(zone)(now).text.slice(0, 10).split('/');
  return `${prefix}-${year}-${month}-${day}.csv`;
}
