/**
 * The messages between the request thread and the thread of the embedded database
 * (db/pglite-thread.ts, db-worker.ts).
 */
export type DbRequest =
  | { t: 'open'; id: number; dataDir: string }
  | { t: 'query'; id: number; sql: string; params: readonly unknown[]; prepare?: string; tx?: number }
  | { t: 'exec'; id: number; sql: string; tx?: number }
  | { t: 'begin'; id: number; tx: number }
  | { t: 'end'; id: number; tx: number; commit: boolean }
  | { t: 'listen'; id: number; channel: string }
  | { t: 'close'; id: number };

/** A database error as plain data: its message and its fields (code, detail, position…). */
export interface ErrorData {
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type DbAnswer = { id: number; rows?: unknown[] } | { id: number; error: ErrorData };

/**
 * A NOTIFY heard by the database's thread, posted before the answer of the statement that
 * committed it (messages of one port arrive in order).
 */
export interface DbNotification {
  notify: string;
  payload: string;
}

export function errorData(err: unknown): ErrorData {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  return { message: err.message, fields };
}

/** The error again, with the same fields (`code` above all: callers test it). */
export function errorFrom(data: ErrorData): Error {
  const err = new Error(data.message);
  err.name = 'DatabaseError';
  return Object.assign(err, data.fields);
}
