import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { SECRET_BLOCKS, SECRET_VALUES } from '../redact.ts';

const NAMES = [...SECRET_VALUES, ...SECRET_BLOCKS].join('|');
/** A start tag of a secret element, any case, with or without attributes (quoted `>` allowed). */
const OPEN = new RegExp(`<(${NAMES})(?=[\\s/>])(?:"[^"]*"|'[^']*'|[^>"'])*>`, 'gi');

/** [start, end) of the content of every secret element (to its end tag or the end of the text). */
function secretContents(text: string): [number, number][] {
  const out: [number, number][] = [];
  OPEN.lastIndex = 0;
  for (let m = OPEN.exec(text); m; m = OPEN.exec(text)) {
    if (m[0].endsWith('/>')) continue;
    const contentStart = m.index + m[0].length;
    const close = new RegExp(`</${m[1]}\\s*>`, 'gi');
    close.lastIndex = contentStart;
    const found = close.exec(text);
    out.push([contentStart, found ? found.index : text.length]);
    OPEN.lastIndex = found ? found.index + found[0].length : text.length;
  }
  return out;
}

/**
 * The document with every secret replaced by the placeholder, for showing lines of a document
 * that may not parse (the diagnostic's context lines). A lenient scan, not the parser: everything
 * between a secret element's start tag and its end tag (the first one of that name, any case), or
 * the end of the text when it is never closed, is hidden: text, CDATA, comments, nested tags, a
 * stray `<`. Line breaks inside are kept, so that line numbers stay those of the stored document.
 */
export function maskSecrets(text: string): string {
  let out = '';
  let copied = 0;
  for (const [start, end] of secretContents(text)) {
    const value = text.slice(start, end);
    out += text.slice(copied, start);
    out += value === '' ? value : SECRET_PLACEHOLDER + '\n'.repeat(value.split('\n').length - 1);
    copied = end;
  }
  return out + text.slice(copied);
}

/**
 * A `<` inside a password reads as a tag (`pa<ss>wd`), and the parser's messages name it
 * (« l’élément <ss> n’est pas fermé »): the names of the tags written inside secrets, to hide from
 * the diagnostic's messages with hideSecretTagNames.
 */
export function secretTagNames(text: string): string[] {
  const names = new Set<string>();
  for (const [start, end] of secretContents(text)) {
    for (const m of text.slice(start, end).matchAll(/<\/?([^\s<>/!?=]+)/g)) names.add(m[1] as string);
  }
  return [...names];
}

/** A message about `text` (a diagnostic's, a repair's) without the names of tags inside its secrets. */
export function hideSecretNamesIn(text: string, message: string): string {
  const names = secretTagNames(text);
  return names.length === 0 ? message : hideSecretTagNames(message, names);
}

/** The message with every `<name>` / `</name>` of those names replaced by the placeholder. */
export function hideSecretTagNames(message: string, names: readonly string[]): string {
  let out = message;
  for (const name of names)
    out = out
      .split(`<${name}>`)
      .join(`<${SECRET_PLACEHOLDER}>`)
      .split(`</${name}>`)
      .join(`</${SECRET_PLACEHOLDER}>`);
  return out;
}
