import type { TDiagnosticIssue } from '@synchro/contracts';
import type { TLineIndex } from '../lines.ts';
import { countInData, countInvalidCharacters, TEXT_ONLY, type TOccurrences } from './occurrences.ts';
import { BARE_AMPERSAND, CDATA_END, DOUBLE_ESCAPED, STRAY_LESS_THAN } from './patterns.ts';

interface LexicalCheck {
  code: string;
  severity: TDiagnosticIssue['severity'];
  /** How many occurrences, and the offset of the first one. */
  find: (text: string) => TOccurrences;
  message: (count: number) => string;
}

const CHECKS: readonly LexicalCheck[] = [
  {
    code: 'invalid-character',
    severity: 'error',
    find: countInvalidCharacters,
    message: (n) =>
      `${n} caractère(s) interdit(s) en XML 1.0 (caractères de contrôle, U+FFFE/U+FFFF, demi-paires UTF-16 ou références &#…; vers ces caractères).`,
  },
  {
    code: 'bare-ampersand',
    severity: 'error',
    find: (text) => countInData(text, BARE_AMPERSAND),
    message: (n) =>
      `${n} « & » isolé(s) qui ne commencent pas une entité XML (ils doivent être écrits « &amp; »).`,
  },
  {
    code: 'bare-less-than',
    severity: 'error',
    find: (text) => countInData(text, STRAY_LESS_THAN, TEXT_ONLY),
    message: (n) => `${n} « < » isolé(s) dans le texte (ils doivent être écrits « &lt; »).`,
  },
  {
    code: 'cdata-end-in-text',
    severity: 'error',
    find: (text) => countInData(text, CDATA_END, TEXT_ONLY),
    message: (n) => `${n} « ]]> » dans le texte, interdit en XML (il doit être écrit « ]]&gt; »).`,
  },
  {
    code: 'double-escaped-entity',
    severity: 'warning',
    find: (text) => countInData(text, DOUBLE_ESCAPED),
    message: (n) =>
      `${n} entité(s) échappée(s) deux fois (« &amp;apos; » au lieu de « &apos; ») : le texte affiché montre « &apos; » au lieu de l’apostrophe.`,
  },
];

/** Faults of single characters or references: invalid characters, bare '&', double escaping. */
export function lexicalIssues(text: string, lines: TLineIndex): TDiagnosticIssue[] {
  const issues: TDiagnosticIssue[] = [];
  for (const check of CHECKS) {
    const found = check.find(text);
    if (found.count === 0) continue;
    issues.push({
      code: check.code,
      severity: check.severity,
      message: check.message(found.count),
      line: lines.lineOf(found.first),
      count: found.count,
    });
  }
  return issues;
}
