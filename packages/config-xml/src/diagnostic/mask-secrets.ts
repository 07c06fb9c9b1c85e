import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { CUSTOMER_AREA, SECRET_ELEMENT, TOKEN_ELEMENTS } from '../redact.ts';

/**
 * The document with every secret value replaced by the placeholder, for showing lines of a
 * document that may not parse (the diagnostic's context lines). A lenient scan, not the parser:
 * the content of every `MDP`, and every text inside a Token, Tokens or EspaceClient element (to
 * its end tag, or to the end of the text when it is not closed). Line breaks inside a secret are
 * kept, so that line numbers stay those of the stored document.
 */
export function maskSecrets(text: string): string {
  const ranges: [number, number][] = [];
  const leaf = new RegExp(`<${SECRET_ELEMENT}(?:\\s[^>]*)?>([^<]*)`, 'g');
  for (let m = leaf.exec(text); m; m = leaf.exec(text)) {
    const start = m.index + m[0].length - (m[1] ?? '').length;
    ranges.push([start, m.index + m[0].length]);
  }
  const blocks = new RegExp(`<(${[...TOKEN_ELEMENTS, CUSTOMER_AREA].join('|')})(?:\\s[^>]*)?>`, 'g');
  for (let m = blocks.exec(text); m; m = blocks.exec(text)) {
    const close = text.indexOf(`</${m[1]}>`, m.index);
    const end = close === -1 ? text.length : close;
    const inner = />([^<]+)</g;
    inner.lastIndex = m.index + m[0].length - 1;
    for (let t = inner.exec(text); t && t.index < end; t = inner.exec(text)) {
      ranges.push([t.index + 1, t.index + 1 + (t[1] ?? '').length]);
      inner.lastIndex = t.index + t[0].length - 1;
    }
    blocks.lastIndex = end;
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let copied = 0;
  for (const [start, end] of ranges) {
    if (start < copied) continue;
    const value = text.slice(start, end);
    out += text.slice(copied, start);
    // Whitespace-only text (indentation between elements) is not a secret.
    out += value.trim() === '' ? value : SECRET_PLACEHOLDER + '\n'.repeat(value.split('\n').length - 1);
    copied = end;
  }
  return out + text.slice(copied);
}
