import {
  ConfigXmlError,
  documentFromLayout,
  parseConfig,
  transferLayout,
  type ConfigDocument,
  type TransferredLayout,
} from '@synchro/config-xml';
import { OFFLOAD_MIN_BYTES, type Offload } from '../offload/pool.ts';
import { defineTask } from '../offload/task.ts';
import { parseStored, unreadableConfiguration } from './configurations.ts';

/** A configuration's scan, done in a worker thread for a big text (config-cache.ts). */
export type ParsedLayout =
  | { layout: TransferredLayout }
  | { error: { code: string; message: string; line?: number; column?: number; offset?: number } };

export const parseConfigTask = defineTask(
  'config.parse',
  ({ text }: { text: string }): ParsedLayout => {
    try {
      return { layout: transferLayout(parseConfig(text)).value };
    } catch (err) {
      if (!(err instanceof ConfigXmlError)) throw err;
      const { code, message, line, column, offset } = err;
      return { error: { code, message, ...definedOnly({ line, column, offset }) } };
    }
  },
  (out) => ('layout' in out ? Object.values(out.layout.arrays).map((a) => a.buffer as ArrayBuffer) : []),
);

function definedOnly<T extends Record<string, number | undefined>>(
  values: T,
): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<
    Record<keyof T, number>
  >;
}

/** The error of a scan done elsewhere, as parseConfig would have thrown it. */
export function errorOfLayout(error: Extract<ParsedLayout, { error: unknown }>['error']): ConfigXmlError {
  const { code, message, ...details } = error;
  return new ConfigXmlError(code, message, details);
}

/**
 * A stored configuration parsed as parseStored does (422 when unreadable), in a worker thread
 * when it is big: a fresh document of its own (an edit may build trees in it), never the cache's.
 */
export async function parseStoredOffThread(offload: Offload, text: string): Promise<ConfigDocument> {
  if (text.length < OFFLOAD_MIN_BYTES) return parseStored(text);
  const out = await offload.run(parseConfigTask, { text });
  if ('layout' in out) return documentFromLayout(text, out.layout);
  throw unreadableConfiguration(errorOfLayout(out.error));
}
