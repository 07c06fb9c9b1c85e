/** The section edit timed by the benchmark, found among the package exports. */

export interface TSectionEdit {
  label: string;
  run: (text: string) => unknown;
}

/** Null until the core exports a section edit. */
export function sectionEdit(): TSectionEdit | null {
  return null;
}
