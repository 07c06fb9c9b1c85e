import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';
import { attachmentDisposition, contentTypeOf, safeFileName } from './download.ts';

describe('file names of downloads', () => {
  it('keeps the last path part only, without quotes or control characters', () => {
    expect(safeFileName('C:\\Docs\\..\\devis "final".pdf')).toBe('devis final.pdf');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a\r\nSet-Cookie: x.png')).toBe('aSet-Cookie: x.png');
    expect(safeFileName('.htaccess')).toBe('htaccess');
    expect(safeFileName('../')).toBe('fichier');
    expect(safeFileName(' \u0007 ')).toBe('fichier');
  });

  it.each([
    [
      'U+202E (right-to-left override: « facture<U+202E>fdp.exe » shows as « factureexe.pdf »)',
      'facture\u202efdp.exe',
    ],
    ['U+202A…U+202D (embeddings, overrides)', '\u202afac\u202bture\u202cfdp\u202d.exe'],
    ['U+2066…U+2069 (isolates)', '\u2066facture\u2067fdp\u2068.exe\u2069'],
    ['U+200E, U+200F (marks), U+061C (Arabic letter mark)', 'fac\u200eture\u200ffdp\u061c.exe'],
    [
      'zero width, word joiner, byte order mark, soft hyphen',
      '\u200bfac\u200cture\u200dfdp\u2060\ufeff\u00ad.exe',
    ],
    ['line and paragraph separators', 'fac\u2028ture\u2029fdp.exe'],
  ])('drops invisible and bidirectional controls: %s', (_what, name) => {
    expect(safeFileName(name)).toBe('facturefdp.exe');
    const header = attachmentDisposition(name);
    expect(header).toBe('attachment; filename="facturefdp.exe"');
  });

  it('drops the blanks at the end, keeps those inside, in time linear in the name', () => {
    expect(safeFileName('devis  final.pdf \t ')).toBe('devis  final.pdf');
    // A long run of blanks inside a name (a connector's record): 200 000 of them took seconds with
    // the pattern /\s+$/ tried at each position; a single pass takes well under a millisecond.
    const name = `a${' '.repeat(200_000)}b.pdf`;
    const started = performance.now();
    expect(safeFileName(name)).toBe(name);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('keeps letters of right-to-left scripts, only their controls go', () => {
    expect(safeFileName('\u202eفاتورة.pdf')).toBe('فاتورة.pdf');
    expect(safeFileName('חשבונית\u200f.pdf')).toBe('חשבונית.pdf');
  });

  it('filename for every client, filename* for a non-ASCII name', () => {
    expect(attachmentDisposition('plan.pdf')).toBe('attachment; filename="plan.pdf"');
    expect(attachmentDisposition("Photo d'été (1)*.jpg")).toBe(
      `attachment; filename="Photo d'ete (1)*.jpg"; filename*=UTF-8''Photo%20d%27%C3%A9t%C3%A9%20%281%29%2A.jpg`,
    );
    expect(attachmentDisposition('日本.pdf')).toBe(
      `attachment; filename="__.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf`,
    );
    expect(attachmentDisposition('100%.pdf')).toBe(
      'attachment; filename="100_.pdf"; filename*=UTF-8\'\'100%25.pdf',
    );
  });

  it('content types by extension', () => {
    expect(contentTypeOf('a.PDF')).toBe('application/pdf');
    expect(contentTypeOf('a.jpeg')).toBe('image/jpeg');
    expect(contentTypeOf('noext')).toBe('application/octet-stream');
    expect(contentTypeOf('a.exe')).toBe('application/octet-stream');
  });
});

describe('CSV cells', () => {
  it('quotes texts, doubles quotes, leaves numbers', () => {
    expect(csvRow(['a', 'b;c', 'd"e', 12, -3])).toBe('"a";"b;c";"d""e";12;-3\r\n');
  });

  it('neutralises what a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    }
    expect(csvCell('1-1')).toBe('"1-1"');
  });

  it.each([
    ['a space', ' =1+1'],
    ['spaces and a tab', '  \t+1+1'],
    ['a no-break space', '\u00a0=1+1'],
    ['a narrow no-break space', '\u202f@SUM(A1)'],
    ['an ideographic space', '\u3000=1+1'],
    ['a line feed', '\n=1+1'],
    ['a zero-width space', '\u200b=1+1'],
    ['a byte order mark', '\ufeff=1+1'],
    ['a full-width equals sign', '\uff1dHYPERLINK("http://x")'],
    ['a full-width plus sign', '\uff0b1+1'],
    ['a full-width hyphen-minus', '\uff0d1+1'],
    ['a full-width commercial at', '\uff20SUM(A1)'],
    ['a small equals sign', '\ufe66cmd'],
    ['a minus sign', '\u22121+1'],
    ['a space then a full-width equals sign', ' \uff1d1+1'],
  ])('neutralises a formula behind %s', (_what, value) => {
    expect(csvCell(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
  });

  it('leaves texts that only start with a blank, and signs inside a text', () => {
    expect(csvCell(' Devis 12')).toBe('" Devis 12"');
    expect(csvCell('\u00a0Intervention')).toBe('"\u00a0Intervention"');
    expect(csvCell('Total = 12 + 3')).toBe('"Total = 12 + 3"');
    expect(csvCell('a\uff1db')).toBe('"a\uff1db"');
  });
});
