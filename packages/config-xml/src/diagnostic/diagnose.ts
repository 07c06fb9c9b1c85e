import type { TConfigDiagnostic, TDiagnosticIssue, TProblematicLine } from '@synchro/contracts';
import { countInData } from './checks/occurrences.ts';
import { BARE_AMPERSAND } from './checks/patterns.ts';
import { encodingIssues } from './checks/encoding.ts';
import { lexicalIssues } from './checks/lexical.ts';
import { structureIssues } from './checks/structure.ts';
import { extractValues, WANTED_PATHS } from './extraction.ts';
import { walkLenient } from './lenient-tree.ts';
import { lineIndex, type TLineIndex } from './lines.ts';
import { ROOT_NAME } from './sections.ts';
import { checkSize } from '../xml/scan.ts';
import { ConfigXmlError } from '../errors.ts';
import { segments, withSegmentTable } from './segments.ts';
import { engineVerdict, strictScan } from './well-formed.ts';
import { hideSecretTagNames, maskSecrets, secretTagNames } from './mask-secrets.ts';

/** Lines shown on each side of the problematic line. */
const CONTEXT_LINES = 3;

/** Longest line content returned; longer lines (a document on one line) are cut around the fault. */
const MAX_LINE_CHARS = 400;

/** A long line cut to MAX_LINE_CHARS, centred on the column when there is one. */
export function clipLine(content: string, column: number | null): string {
  if (content.length <= MAX_LINE_CHARS) return content;
  const centre = column === null ? 0 : Math.min(Math.max(column - 1, 0), content.length);
  const start = Math.max(0, Math.min(centre - MAX_LINE_CHARS / 2, content.length - MAX_LINE_CHARS));
  const end = start + MAX_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${content.slice(start, end)}${end < content.length ? '…' : ''}`;
}

function contextAround(lines: TLineIndex, line: number, column: number | null): TProblematicLine[] {
  const content: TProblematicLine[] = [];
  const last = Math.min(lines.count, line + CONTEXT_LINES);
  for (let n = Math.max(1, line - CONTEXT_LINES); n <= last; n += 1) {
    const text = clipLine(lines.content(n), n === line ? column : null);
    content.push({ lineNumber: n, content: text, isProblematic: n === line });
  }
  return content;
}

function empty(text: string | null | undefined, parseError: string): TConfigDiagnostic {
  return {
    hasXML: typeof text === 'string' && text.trim() !== '',
    xmlLength: typeof text === 'string' ? text.length : 0,
    isValid: false,
    canExtractValues: false,
    parseError,
    problematicLine: null,
    problematicContent: [],
    extractionResults: {},
    issues: [],
  };
}

function firstDoctype(text: string): number {
  for (const segment of segments(text)) {
    if (segment.kind === 'doctype' && text.startsWith('<!DOCTYPE', segment.start)) return segment.start;
    if (segment.kind === 'start') return -1;
  }
  return -1;
}

/** The package parser's refusal of a document saxes found well-formed, or null. */
function parserRefusal(text: string): ConfigXmlError | null {
  const verdict = engineVerdict(text);
  if (verdict.failure !== null) throw verdict.failure.error;
  return verdict.refusal;
}

function diagnose(text: string): TConfigDiagnostic {
  // The package's own size limit (parseConfig's), checked before anything is parsed.
  try {
    checkSize(text);
  } catch (error) {
    if (!(error instanceof ConfigXmlError)) throw error;
    const result = empty(text, error.message);
    result.issues.push({ code: 'too-large', severity: 'error', message: error.message });
    return result;
  }
  const lines = lineIndex(text);
  const tree = walkLenient(text, WANTED_PATHS);
  const lexical = lexicalIssues(text, lines);
  // Faults the lenient passes see (a bare '&', a stray '<', tags that do not pair up...) are sure
  // signs of a text saxes refuses: it is then asked first (see strictScan).
  const strict = strictScan(text, !tree.balanced || lexical.some((issue) => issue.severity === 'error'));
  const issues: TDiagnosticIssue[] = [];

  const doctypeAt = firstDoctype(text);
  if (strict.doctype || doctypeAt !== -1) {
    issues.push({
      code: 'doctype',
      severity: 'error',
      message:
        'Le document contient une déclaration DOCTYPE : elle est refusée (pas de DTD ni d’entités externes).',
      ...(doctypeAt !== -1 ? { line: lines.lineOf(doctypeAt) } : {}),
    });
  }
  issues.push(...lexical, ...encodingIssues(text, lines), ...structureIssues(tree, lines));

  // The first fault in document order: saxes reads a bare '&' as the start of an entity name and
  // reports it far later, so the lexical scan locates that one.
  let parseError: string | null = null;
  let problematicLine: number | null = null;
  let problematicColumn: number | null = null;
  if (strict.fault !== null) {
    parseError = strict.fault.message;
    problematicLine = strict.fault.line;
    problematicColumn = strict.fault.column;
    const bare = countInData(text, BARE_AMPERSAND);
    if (bare.first !== -1 && lines.lineOf(bare.first) < problematicLine) {
      problematicLine = lines.lineOf(bare.first);
      problematicColumn = bare.first - text.lastIndexOf('\n', bare.first - 1);
      parseError = '« & » isolé (il doit être écrit « &amp; »)';
    }
    parseError = `Ligne ${problematicLine} : ${parseError}`;
  } else if (strict.doctype || doctypeAt !== -1) {
    problematicLine = doctypeAt !== -1 ? lines.lineOf(doctypeAt) : 1;
    parseError = `Ligne ${problematicLine} : déclaration DOCTYPE refusée`;
  } else if (strict.rootName !== ROOT_NAME) {
    problematicLine = tree.root ? lines.lineOf(tree.root.start) : 1;
    parseError = `Ligne ${problematicLine} : l’élément racine doit être <${ROOT_NAME}> (trouvé <${strict.rootName ?? ''}>)`;
  } else {
    // Valid means the engine reads it: the package parser has the last word (depth, names…).
    const refusal = parserRefusal(text);
    if (refusal !== null) {
      problematicLine = refusal.line ?? 1;
      problematicColumn = refusal.column ?? null;
      const message = refusal.message.replace(/ \(ligne \d+, colonne \d+\)$/, '');
      parseError = `Ligne ${problematicLine} : ${message}`;
      issues.push({ code: 'parser-refusal', severity: 'error', message, line: problematicLine });
    }
  }

  const extractionResults = extractValues(tree);
  const values = Object.values(extractionResults);
  return {
    hasXML: true,
    xmlLength: text.length,
    isValid: parseError === null,
    canExtractValues:
      tree.root?.name === ROOT_NAME &&
      values.some((value) => value !== 'NC') &&
      !values.some((value) => value.startsWith('Error:')),
    parseError,
    problematicLine,
    problematicContent:
      problematicLine === null
        ? []
        : contextAround(lineIndex(maskSecrets(text)), problematicLine, problematicColumn),
    extractionResults,
    issues,
  };
}

/** The diagnostic with the names of tags written inside secrets hidden from its messages. */
function withoutSecretNames(text: string, d: TConfigDiagnostic): TConfigDiagnostic {
  // Only a `<` of a message can start a name to hide: without one, no need to look for them.
  const messages = [d.parseError ?? '', ...d.issues.map((i) => i.message)];
  if (!messages.some((m) => m.includes('<'))) return d;
  const names = secretTagNames(text);
  if (names.length === 0) return d;
  return {
    ...d,
    parseError: d.parseError === null ? null : hideSecretTagNames(d.parseError, names),
    issues: d.issues.map((i) => ({ ...i, message: hideSecretTagNames(i.message, names) })),
  };
}

/**
 * Diagnose a ConfigConnecteur document (docs/spec-notes.md, Diagnostic). Never throws: any
 * input, however broken, gives a diagnostic; no DTD is read and no entity beyond the predefined
 * ones expanded.
 */
export function diagnoseConfig(text: string | null | undefined): TConfigDiagnostic {
  if (typeof text !== 'string' || text.trim() === '') {
    return empty(text, 'Aucun XML de configuration n’est disponible.');
  }
  try {
    return withoutSecretNames(
      text,
      withSegmentTable(() => diagnose(text)),
    );
  } catch (error) {
    return empty(text, `Le diagnostic a échoué : ${error instanceof Error ? error.message : String(error)}`);
  }
}
