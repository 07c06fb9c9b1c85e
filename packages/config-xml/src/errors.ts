/**
 * The one error type of the package: every malformed, unsafe or invalid input ends here, with a
 * French `message` for the administrator, a stable `code`, and the 1-based `line`/`column` of the
 * fault in the document when it has one.
 */
export class ConfigXmlError extends Error {
  readonly code: string;
  readonly line?: number;
  readonly column?: number;
  /** Offset (UTF-16 code units from the start of the text) of the fault, when it has one. */
  readonly offset?: number;
  /** For 'invalid-payload': one French message per invalid field, with its path. */
  readonly issues?: { path: string; message: string }[];

  constructor(
    code: string,
    message: string,
    details: {
      line?: number;
      column?: number;
      offset?: number;
      issues?: { path: string; message: string }[];
    } = {},
  ) {
    super(message);
    this.name = 'ConfigXmlError';
    this.code = code;
    if (details.line !== undefined) this.line = details.line;
    if (details.column !== undefined) this.column = details.column;
    if (details.offset !== undefined) this.offset = details.offset;
    if (details.issues !== undefined) this.issues = details.issues;
  }
}

/** 1-based line and column of an offset in a text (LF, CRLF and CR all end a line). */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
    } else if (c === 13) {
      if (text.charCodeAt(i + 1) !== 10) {
        line++;
        lineStart = i + 1;
      }
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** An error located at `offset` in `text`; the message gets " (ligne L, colonne C)". */
export function errorAt(text: string, offset: number, code: string, message: string): ConfigXmlError {
  const { line, column } = lineColumnAt(text, offset);
  return new ConfigXmlError(code, `${message} (ligne ${line}, colonne ${column})`, { line, column, offset });
}
