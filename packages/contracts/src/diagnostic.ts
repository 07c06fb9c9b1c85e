import { z } from 'zod';

/** One line of the document shown around a parse error. */
export const ZProblematicLine = z.object({
  /** 1-based line number. */
  lineNumber: z.number().int().positive(),
  /** The line without its line end. */
  content: z.string(),
  /** True for the line the parser stopped at. */
  isProblematic: z.boolean(),
});
export type TProblematicLine = z.infer<typeof ZProblematicLine>;

export const ZDiagnosticSeverity = z.enum(['error', 'warning']);

/** A fault found in the configuration document, beyond the parse error itself. */
export const ZDiagnosticIssue = z.object({
  /** Stable code, e.g. 'double-escaped-entity', 'missing-section'. */
  code: z.string(),
  severity: ZDiagnosticSeverity,
  /** French message for the administrator. */
  message: z.string(),
  /** 1-based line of the first occurrence, when it has one. */
  line: z.number().int().positive().optional(),
  /** Number of occurrences, when it counts them. */
  count: z.number().int().nonnegative().optional(),
});
export type TDiagnosticIssue = z.infer<typeof ZDiagnosticIssue>;

/** The diagnostic (docs/spec-notes.md, Diagnostic), plus the list of faults found. */
export const ZConfigDiagnostic = z.object({
  hasXML: z.boolean(),
  /** Length of the document in characters. */
  xmlLength: z.number().int().nonnegative(),
  isValid: z.boolean(),
  canExtractValues: z.boolean(),
  /** French text of the first parse error, null when the document is valid. */
  parseError: z.string().nullable(),
  problematicLine: z.number().int().positive().nullable(),
  /** The faulty line and up to three lines on each side. */
  problematicContent: z.array(ZProblematicLine),
  /** Key field name to value; 'NC' when absent, 'Error: …' when it cannot be read. */
  extractionResults: z.record(z.string(), z.string()),
  issues: z.array(ZDiagnosticIssue),
});
export type TConfigDiagnostic = z.infer<typeof ZConfigDiagnostic>;

/** One change made by the automatic repair of the configuration document. */
export const ZRepairChange = z.object({
  code: z.string(),
  /** French description of what was changed. */
  message: z.string(),
  line: z.number().int().positive().optional(),
});
export type TRepairChange = z.infer<typeof ZRepairChange>;
