import type { THistorySection } from '@synchro/contracts';
import {
  ConfigXmlError,
  parseConfig,
  referencesWithHistory,
  scopeGenerations,
  sectionChanges,
  sectionsChanged,
  type ConfigDocument,
  type ScopeGenerations,
} from '@synchro/config-xml';
import { defineTask } from '../offload/task.ts';

export interface VersionChangesInput {
  beforeText: string;
  afterText: string;
  previousScopes: ScopeGenerations | null;
  next: number;
  connector: boolean;
  /** `beforeText` parsed, when the caller has it. */
  before?: ConfigDocument | undefined;
}

/** What a new version changed (prepareVersion): its scope generations, sections and summary. */
export interface VersionChanges {
  scopes: ScopeGenerations | null;
  sections: THistorySection[];
  /** One line per change; null: the caller's lines stay (the connector's). */
  summary: string[] | null;
  /**
   * The data to sync that had a history in the version before (Histo above 0), kept so that the
   * screen still offers it once cleared (sync-data-history.ts).
   */
  hadHistory: string[];
}

/** A text parsed, or null when it is not a readable configuration. */
export function parseOrNull(text: string): ConfigDocument | null {
  try {
    return parseConfig(text);
  } catch (err) {
    if (err instanceof ConfigXmlError) return null;
    throw err;
  }
}

export function versionChanges(input: VersionChangesInput): VersionChanges {
  const after = parseOrNull(input.afterText);
  const before = input.before ?? parseOrNull(input.beforeText);
  const hadHistory = before ? historyOf(before) : [];
  if (!after) return { scopes: null, sections: [], summary: null, hadHistory };
  const scopes = scopeGenerations(before, input.previousScopes, after, input.next);
  if (!input.previousScopes || !before) return { scopes, sections: [], summary: null, hadHistory };
  const sections = sectionsChanged(scopes, input.next);
  const summary = input.connector ? null : sectionChanges(before, after, sections).map((c) => c.summary);
  return { scopes, sections, summary, hadHistory };
}

/** referencesWithHistory, none when the section cannot be read (the Diagnostic's business). */
function historyOf(doc: ConfigDocument): string[] {
  try {
    return referencesWithHistory(doc);
  } catch (err) {
    if (err instanceof ConfigXmlError) return [];
    throw err;
  }
}

/** The same in a worker thread, for a big configuration (two scans: never on the request thread). */
export const versionChangesTask = defineTask(
  'config.version-changes',
  (input: Omit<VersionChangesInput, 'before'>) => versionChanges(input),
);
