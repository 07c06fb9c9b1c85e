import { SaxesParser } from 'saxes';
import { frenchParserMessage } from './parser-messages.ts';
import { sharedPass } from './segments.ts';

/** The first well-formedness fault of a document. */
export interface TParseFault {
  /** French description, without position. */
  message: string;
  line: number;
  column: number;
}

export interface TStrictScan {
  fault: TParseFault | null;
  doctype: boolean;
  rootName: string | null;
}

/** Thrown from the error handler to end the pass at the first fault. */
const STOP = Symbol('stop');

/**
 * One strict pass of saxes over the document: first fault (French), DOCTYPE presence, root name.
 * saxes expands no entity beyond the five predefined ones and never fetches anything.
 */
export function strictScan(text: string): TStrictScan {
  // Once per text inside withSegmentTable: the repair scans its result, then diagnoses it.
  return sharedPass(text, 'strict', () => scan(text));
}

function scan(text: string): TStrictScan {
  const parser = new SaxesParser({ position: true });
  const result: TStrictScan = { fault: null, doctype: false, rootName: null };
  // saxes pops the element an unexpected end tag skips over (and reports its close) before failing.
  let lastClosed = '';

  parser.on('error', (error) => {
    if (result.fault !== null) throw STOP;
    const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
    const french =
      message === 'unexpected close tag.' && lastClosed !== ''
        ? `balise fermante inattendue : l’élément <${lastClosed}> n’est pas fermé avant elle`
        : frenchParserMessage(message);
    result.fault = { message: french, line: parser.line, column: parser.column };
    // Only the first fault is reported: stop there (saxes may otherwise report one per open tag).
    throw STOP;
  });
  parser.on('doctype', () => {
    result.doctype = true;
  });
  parser.on('opentag', (tag) => {
    result.rootName ??= tag.name;
  });
  parser.on('closetag', (tag) => {
    lastClosed = tag.name;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error === STOP) return result;
    // saxes reports through the handler; anything else thrown here is an internal limit.
    result.fault ??= {
      message: `erreur d’analyse (${String(error)})`,
      line: parser.line,
      column: parser.column,
    };
  }
  return result;
}
