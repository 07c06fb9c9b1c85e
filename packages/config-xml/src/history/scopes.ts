import type { TEditKind } from '@synchro/contracts';
import { asDocument, type ConfigDocument } from '../document.ts';
import { editScope } from '../scope.ts';
import { childrenNamed } from '../xml/tree.ts';

/**
 * Scope generations: for each thing a console save owns (an edit kind's `editScope`; each
 * terminal apart), the version in which it last changed. Two versions whose generation of a
 * scope is the same have that scope byte for byte the same (nothing changed it in between), so
 * the conflict check of a save needs only these numbers, kept with every version after its text
 * is pruned. Being version numbers, not hashes, they say nothing about a secret they cover.
 */

export type ScopeKind = Exclude<TEditKind, 'terminal'>;

/** The edit kinds other than the terminal's (one scope each). */
export const SCOPE_KINDS: readonly ScopeKind[] = [
  'sources',
  'externalLinks',
  'externalCalendars',
  'syncData',
  'exclusions',
  'complement',
  'planifications',
];

export interface ScopeGenerations {
  /** Edit kind → version in which its scope last changed. */
  kinds: Record<ScopeKind, number>;
  /** Terminal (0-based index) → version in which it last changed. */
  terminals: number[];
}

/** How many Terminal elements the document has. */
export function terminalCount(input: string | ConfigDocument): number {
  const doc = asDocument(input);
  return childrenNamed(doc.section('Terminaux', { depth: 0, fresh: true }), 'Terminal').length;
}

/**
 * The generations of `after` (written as `version`) from those of the version it replaces:
 * a scope whose text is the same as in `before` keeps its generation, any other gets `version`.
 * Without the generations of `before` (a version written before they existed), every scope
 * gets `version`.
 */
export function scopeGenerations(
  before: ConfigDocument | null,
  beforeGenerations: ScopeGenerations | null,
  after: ConfigDocument,
  version: number,
): ScopeGenerations {
  const kinds = {} as Record<ScopeKind, number>;
  for (const kind of SCOPE_KINDS) {
    const kept = beforeGenerations?.kinds[kind];
    kinds[kind] =
      before && kept !== undefined && editScope(before, kind) === editScope(after, kind) ? kept : version;
  }
  const terminals: number[] = [];
  const count = terminalCount(after);
  const beforeCount = before ? terminalCount(before) : 0;
  for (let i = 0; i < count; i++) {
    const kept = beforeGenerations?.terminals[i];
    terminals.push(
      before &&
        i < beforeCount &&
        kept !== undefined &&
        editScope(before, 'terminal', i) === editScope(after, 'terminal', i)
        ? kept
        : version,
    );
  }
  return { kinds, terminals };
}

/** What a version changed, from its generations: the kinds and the terminals it wrote. */
export function changedScopes(
  generations: ScopeGenerations,
  version: number,
): { kinds: ScopeKind[]; terminals: number[] } {
  return {
    kinds: SCOPE_KINDS.filter((k) => generations.kinds[k] === version),
    terminals: generations.terminals.flatMap((g, i) => (g === version ? [i] : [])),
  };
}

/** The generation of one edit's scope (`index`: the terminal's), or undefined when unknown. */
export function generationOf(generations: ScopeGenerations, kind: TEditKind, index = 0): number | undefined {
  return kind === 'terminal' ? generations.terminals[index] : generations.kinds[kind];
}
