import type { TDiagnosticIssue } from '@synchro/contracts';
import type { TLenientTree } from '../lenient-tree.ts';
import type { TLineIndex } from '../lines.ts';
import { LEGACY_SECTION_ORDER, REQUIRED_SECTIONS, ROOT_NAME } from '../sections.ts';

/** Root element and top-level sections: wrong root, missing or repeated sections. */
export function structureIssues(tree: TLenientTree, lines: TLineIndex): TDiagnosticIssue[] {
  const issues: TDiagnosticIssue[] = [];
  if (tree.root === null) return issues;
  if (tree.root.name !== ROOT_NAME) {
    issues.push({
      code: 'wrong-root',
      severity: 'error',
      message: `L’élément racine est <${tree.root.name}> au lieu de <${ROOT_NAME}>.`,
      line: lines.lineOf(tree.root.start),
    });
    return issues;
  }
  const seen = new Map<string, number[]>();
  for (const section of tree.sections) {
    const list = seen.get(section.name) ?? [];
    list.push(section.start);
    seen.set(section.name, list);
  }
  for (const name of LEGACY_SECTION_ORDER) {
    const found = seen.get(name);
    if (found === undefined) {
      const required = REQUIRED_SECTIONS.has(name);
      issues.push({
        code: 'missing-section',
        severity: required ? 'error' : 'warning',
        message: required
          ? `La section obligatoire <${name}> est absente.`
          : `La section <${name}> est absente (elle sera créée vide par la réparation).`,
      });
    } else if (found.length > 1) {
      issues.push({
        code: 'duplicate-section',
        severity: 'warning',
        message: `La section <${name}> apparaît ${found.length} fois.`,
        line: lines.lineOf(found[1] ?? 0),
        count: found.length,
      });
    }
  }
  return issues;
}
