import type { TRepairChange } from '@synchro/contracts';
import { lineIndex } from '../diagnostic/lines.ts';
import { segments } from '../diagnostic/segments.ts';
import { ConfigXmlError } from '../errors.ts';
import { MAX_DEPTH } from '../xml/scan.ts';
import { isTypoOf } from './similarity.ts';
import type { TRepairStep } from './types.ts';

/** A plausible XML name (ASCII letters, digits, '_', '-', '.', ':' and any non-ASCII letter). */
const XML_NAME = /^[A-Za-z_:\u00C0-\uFFFF][\w.:\u00B7\u00C0-\uFFFF-]*$/;

interface TOpen {
  name: string;
  /** Offset of the start tag's '<'. */
  start: number;
  /** Offset after the start tag. */
  tagEnd: number;
  /** Offset after the last non-blank character of its text, -1 when it has no text. */
  textEnd: number;
  hasChild: boolean;
}

interface TEdit {
  at: number;
  remove: number;
  insert: string;
}

function refuse(text: string, offset: number, message: string): ConfigXmlError {
  const line = lineIndex(text).lineOf(offset);
  return new ConfigXmlError(
    'repair-ambiguous',
    `${message} (ligne ${line}) : réparation automatique impossible sans deviner.`,
    {
      line,
      offset,
    },
  );
}

/** Where the missing end tag of a leaf goes, when its next sibling (or parent end) starts on a later line. */
function leafCloseAt(text: string, open: TOpen, next: number): number | null {
  if (open.hasChild) return null;
  const at = open.textEnd === -1 ? open.tagEnd : open.textEnd;
  return text.slice(at, next).includes('\n') ? at : null;
}

/**
 * Unclosed and mismatched end tags, where the intent is unambiguous:
 * - a leaf element left open (text, then its next sibling or its parent's end tag on a later
 *   line) gets its end tag right after its text;
 * - an end tag whose name matches no open element and looks like a misspelling of the element
 *   open at that depth is renamed.
 * Anything else (several elements left open, truncated document, stray end tags) is refused.
 */
export const fixEndTags: TRepairStep = (text) => {
  const stack: TOpen[] = [];
  const edits: TEdit[] = [];
  const changes: TRepairChange[] = [];
  const lines = lineIndex(text);
  let rootClosed = false;
  const closeLeaf = (open: TOpen, at: number): void => {
    edits.push({ at, remove: 0, insert: `</${open.name}>` });
    changes.push({
      code: 'unclosed-tag',
      message: `Balise fermante </${open.name}> ajoutée.`,
      line: lines.lineOf(at),
    });
  };
  /** The end tag just before, when only blanks separate it from the current segment. */
  let previousEnd = null as { name: string; end: number } | null;
  for (const segment of segments(text)) {
    const top = stack[stack.length - 1];
    const lastEnd: { name: string; end: number } | null = previousEnd;
    previousEnd = null;
    if (segment.kind === 'text' && lastEnd !== null && text.slice(segment.start, segment.end).trim() === '') {
      previousEnd = lastEnd;
    }
    if (segment.kind === 'text') {
      if (top === undefined) continue;
      const slice = text.slice(segment.start, segment.end);
      const trimmed = slice.trimEnd();
      if (trimmed.trim() !== '') top.textEnd = segment.start + trimmed.length;
      continue;
    }
    if (segment.kind === 'cdata' && top !== undefined) {
      top.textEnd = segment.end;
      continue;
    }
    if (segment.unterminated && (segment.kind === 'start' || segment.kind === 'end')) {
      throw refuse(text, segment.start, 'Balise incomplète');
    }
    if (segment.kind === 'start') {
      if (rootClosed) throw refuse(text, segment.start, 'Élément après la fin de l’élément racine');
      if (top !== undefined && top.textEnd !== -1 && !top.hasChild) {
        const at = leafCloseAt(text, top, segment.start);
        if (at === null)
          throw refuse(
            text,
            segment.start,
            `Élément <${segment.name}> à l’intérieur du texte de <${top.name}>`,
          );
        closeLeaf(top, at);
        stack.pop();
      }
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.hasChild = true;
      if (stack.length >= MAX_DEPTH) throw refuse(text, segment.start, 'Imbrication trop profonde');
      if (!segment.selfClosing)
        stack.push({
          name: segment.name,
          start: segment.start,
          tagEnd: segment.end,
          textEnd: -1,
          hasChild: false,
        });
      else if (stack.length === 0) rootClosed = true;
      continue;
    }
    if (segment.kind !== 'end') continue;
    if (lastEnd?.name === segment.name && !stack.some((open) => open.name === segment.name)) {
      // The same end tag twice in a row (`</Nom></Nom>`), the second closing nothing: a duplicate.
      edits.push({ at: lastEnd.end, remove: segment.end - lastEnd.end, insert: '' });
      changes.push({
        code: 'duplicate-end-tag',
        message: `Balise fermante </${segment.name}> en double supprimée.`,
        line: lines.lineOf(segment.start),
      });
      continue;
    }
    if (top === undefined) throw refuse(text, segment.start, `Balise fermante </${segment.name}> en trop`);
    if (top.name === segment.name) {
      stack.pop();
    } else if (stack.length >= 2 && stack[stack.length - 2]?.name === segment.name) {
      const at = leafCloseAt(text, top, segment.start);
      if (at === null) throw refuse(text, segment.start, `Balise <${top.name}> non fermée`);
      closeLeaf(top, at);
      stack.pop();
      stack.pop();
    } else if (!stack.some((open) => open.name === segment.name) && isTypoOf(segment.name, top.name)) {
      if (!XML_NAME.test(top.name) && XML_NAME.test(segment.name)) {
        // The start tag's name is the damaged one (`<No&m>…</Nom>`): it takes the end tag's.
        edits.push({ at: top.start + 1, remove: top.name.length, insert: segment.name });
        changes.push({
          code: 'mismatched-end-tag',
          message: `Balise ouvrante <${top.name}> corrigée en <${segment.name}>.`,
          line: lines.lineOf(top.start),
        });
      } else {
        edits.push({ at: segment.start + 2, remove: segment.name.length, insert: top.name });
        changes.push({
          code: 'mismatched-end-tag',
          message: `Balise fermante </${segment.name}> corrigée en </${top.name}>.`,
          line: lines.lineOf(segment.start),
        });
      }
      stack.pop();
    } else {
      throw refuse(
        text,
        segment.start,
        `Balise fermante </${segment.name}> qui ne correspond pas à <${top.name}>`,
      );
    }
    if (stack.length === 0) rootClosed = true;
    previousEnd = { name: segment.name, end: segment.end };
  }
  if (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (stack.length === 1 || top === undefined)
      throw refuse(text, text.length, 'Document tronqué (élément racine non fermé)');
    throw refuse(text, text.length, `Document tronqué (<${top.name}> non fermé)`);
  }
  if (edits.length === 0) return { text, changes: [] };
  let out = '';
  let copied = 0;
  for (const edit of edits.sort((a, b) => a.at - b.at)) {
    out += text.slice(copied, edit.at) + edit.insert;
    copied = edit.at + edit.remove;
  }
  out += text.slice(copied);
  return { text: out, changes };
};
