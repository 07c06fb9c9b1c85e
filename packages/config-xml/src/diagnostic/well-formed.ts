import { SaxesParser } from 'saxes';
import { parseConfig } from '../document.ts';
import { ConfigXmlError } from '../errors.ts';
import { ROOT_NAME } from '../xml/scan.ts';
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

/** What the package parser (parseConfig) says of a text. */
export interface TEngineVerdict {
  /** Its refusal, null when it reads the text. */
  refusal: ConfigXmlError | null;
  /** Anything else it threw (never expected): rethrown where the refusal is asked for. */
  failure: { error: unknown } | null;
  /** The scanner's strictEdge for an accepted text (where saxes may judge otherwise). */
  strictEdge: boolean;
}

/**
 * parseConfig's verdict on a text, once per text inside withSegmentTable (the diagnostic asks it,
 * the repair's strict scan too). The document itself is not kept.
 */
export function engineVerdict(text: string): TEngineVerdict {
  return sharedPass(text, 'engine', () => {
    try {
      return { refusal: null, failure: null, strictEdge: parseConfig(text).layout.strictEdge };
    } catch (error) {
      if (error instanceof ConfigXmlError) return { refusal: error, failure: null, strictEdge: false };
      return { refusal: null, failure: { error }, strictEdge: false };
    }
  });
}

/**
 * The strict verdict on the document: first well-formedness fault (French), DOCTYPE presence,
 * root name, as one strict pass of saxes gives them. saxes expands no entity beyond the five
 * predefined ones and never fetches anything.
 *
 * When the package parser accepts the text and saw nothing on which its rules and saxes's part
 * (DocumentLayout.strictEdge), saxes's answer is known without running it: no fault, no DOCTYPE
 * (the parser refuses one), root <Connexion> (the parser requires it). That saxes accepts every
 * such text is tested (test/strict-equivalence.test.ts: generated documents full of the
 * characters and constructs where the two could differ, the fixtures, their mutations).
 */
export function strictScan(text: string, likelyBroken = false): TStrictScan {
  // Once per text inside withSegmentTable: the repair scans its result, then diagnoses it.
  return sharedPass(text, 'strict', () => {
    // A text the cheap lenient passes already found broken goes to saxes straight away: the
    // package parser would refuse it too, after work up to its fault spent for nothing. Either
    // way the answer is the same; only what it costs differs.
    if (!likelyBroken) {
      const verdict = engineVerdict(text);
      if (verdict.refusal === null && verdict.failure === null && !verdict.strictEdge) {
        return { fault: null, doctype: false, rootName: ROOT_NAME };
      }
    }
    return saxesScan(text);
  });
}

/** One strict pass of saxes over the text (strictScan without the shortcut; tests compare both). */
export function saxesScan(text: string): TStrictScan {
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
