import type { TDiagnosticIssue } from '@synchro/contracts';
import { classifyRun, NON_ASCII_RUN } from '../encoding-runs.ts';
import type { TLineIndex } from '../lines.ts';
import { dataMatches, TEXT_ONLY } from './occurrences.ts';

export interface TEncodingCensus {
  /** Pieces in the convention (UTF-8 stored as Latin-1). */
  convention: number;
  /** Pieces typed directly (accented text not in the convention). */
  plain: number;
  firstPlain: number;
  /** Pieces encoded two or more times. */
  multiple: number;
  firstMultiple: number;
}

/** Count, in character data, the non-ASCII pieces of each encoding level. */
export function encodingCensus(text: string): TEncodingCensus {
  const census: TEncodingCensus = { convention: 0, plain: 0, firstPlain: -1, multiple: 0, firstMultiple: -1 };
  for (const { index, match } of dataMatches(text, NON_ASCII_RUN, TEXT_ONLY)) {
    for (const piece of classifyRun(match)) {
      if (piece.level === 1) census.convention += 1;
      else if (piece.level === 0) {
        census.plain += 1;
        if (census.firstPlain === -1) census.firstPlain = index;
      } else {
        census.multiple += 1;
        if (census.firstMultiple === -1) census.firstMultiple = index;
      }
    }
  }
  return census;
}

/** Text not in the connector's convention: typed directly, or encoded more than once. */
export function encodingIssues(text: string, lines: TLineIndex): TDiagnosticIssue[] {
  const census = encodingCensus(text);
  const issues: TDiagnosticIssue[] = [];
  const mixed = census.convention > 0 ? ' (encodages mélangés dans le document)' : '';
  if (census.plain > 0) {
    issues.push({
      code: 'plain-encoding',
      severity: 'warning',
      message: `${census.plain} texte(s) accentué(s) écrits directement en UTF-8, alors que le connecteur attend l’UTF-8 relu en Latin-1 (« Léa » stocké « LÃ©a »)${mixed} : le connecteur les lira mal.`,
      line: lines.lineOf(census.firstPlain),
      count: census.plain,
    });
  }
  if (census.multiple > 0) {
    issues.push({
      code: 'multiple-encoding',
      severity: 'warning',
      message: `${census.multiple} texte(s) encodé(s) plusieurs fois (par exemple « LÃƒÂ©a » au lieu de « LÃ©a »)${mixed}.`,
      line: lines.lineOf(census.firstMultiple),
      count: census.multiple,
    });
  }
  return issues;
}
