import type { TDiagnosticIssue } from '@synchro/contracts';
import type { TLineIndex } from '../lines.ts';
import { countInData, countInvalidCharacters, TEXT_ONLY } from './occurrences.ts';
import { BARE_AMPERSAND, CDATA_END, DOUBLE_ESCAPED, STRAY_LESS_THAN } from './patterns.ts';

/** Faults of single characters or references: invalid characters, bare '&', double escaping. */
export function lexicalIssues(text: string, lines: TLineIndex): TDiagnosticIssue[] {
  const issues: TDiagnosticIssue[] = [];

  const invalid = countInvalidCharacters(text);
  if (invalid.count > 0) {
    issues.push({
      code: 'invalid-character',
      severity: 'error',
      message: `${invalid.count} caractère(s) interdit(s) en XML 1.0 (caractères de contrôle, U+FFFE/U+FFFF, demi-paires UTF-16 ou références &#…; vers ces caractères).`,
      line: lines.lineOf(invalid.first),
      count: invalid.count,
    });
  }

  const bare = countInData(text, BARE_AMPERSAND);
  if (bare.count > 0) {
    issues.push({
      code: 'bare-ampersand',
      severity: 'error',
      message: `${bare.count} « & » isolé(s) qui ne commencent pas une entité XML (ils doivent être écrits « &amp; »).`,
      line: lines.lineOf(bare.first),
      count: bare.count,
    });
  }

  const less = countInData(text, STRAY_LESS_THAN, TEXT_ONLY);
  if (less.count > 0) {
    issues.push({
      code: 'bare-less-than',
      severity: 'error',
      message: `${less.count} « < » isolé(s) dans le texte (ils doivent être écrits « &lt; »).`,
      line: lines.lineOf(less.first),
      count: less.count,
    });
  }

  const cdataEnd = countInData(text, CDATA_END, TEXT_ONLY);
  if (cdataEnd.count > 0) {
    issues.push({
      code: 'cdata-end-in-text',
      severity: 'error',
      message: `${cdataEnd.count} « ]]> » dans le texte, interdit en XML (il doit être écrit « ]]&gt; »).`,
      line: lines.lineOf(cdataEnd.first),
      count: cdataEnd.count,
    });
  }

  const doubled = countInData(text, DOUBLE_ESCAPED);
  if (doubled.count > 0) {
    issues.push({
      code: 'double-escaped-entity',
      severity: 'warning',
      message: `${doubled.count} entité(s) échappée(s) deux fois (« &amp;apos; » au lieu de « &apos; ») : le texte affiché montre « &apos; » au lieu de l’apostrophe.`,
      line: lines.lineOf(doubled.first),
      count: doubled.count,
    });
  }
  return issues;
}
