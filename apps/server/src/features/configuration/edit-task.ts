import {
  CONFIG_SECTIONS,
  type ConfigSectionSave,
  type TSaveableSectionKey,
  type TSectionPayloadNormal,
} from '@synchro/contracts';
import {
  ConfigXmlError,
  documentFromLayout,
  transferLayout,
  type ConfigDocument,
  type TransferredLayout,
} from '@synchro/config-xml';
import { unreadableConfiguration } from '../../domain/configurations.ts';
import { AppError } from '../../http/errors.ts';
import { parseJsonBytes } from '../../http/json-body.ts';
import { invalidPayload, parseOr400 } from '../../http/validate.ts';
import { OFFLOAD_MIN_BYTES, transferable, type Offload } from '../../offload/pool.ts';
import { defineTask } from '../../offload/task.ts';
import { SECTION_SAVERS } from './sections.ts';

/** What a save edits with: its payload checked by the route, or a big body's bytes (SectionSaver.bigBody). */
export type SaveInput<K extends TSaveableSectionKey> =
  { payload: TSectionPayloadNormal<K> } | { body: Uint8Array };

/** The save of a section of the registry (every saveable key has one). */
export const sectionSave = (key: TSaveableSectionKey): ConfigSectionSave =>
  CONFIG_SECTIONS[key].save as ConfigSectionSave;

/**
 * What a byte of body costs the edit, in bytes of stored section: a family sent (about 60 bytes
 * of JSON) takes 6 to 7 µs to parse, check and add, one stored (about 150 bytes) 2 to 4 µs to
 * read and keep or remove. So a body weighs four times its size: from 128 Ko (2 100 families,
 * 5 to 15 ms) it goes to a worker thread; 8 600 families (510 Ko) took 55 to 62 ms here.
 */
export const BODY_BYTE_WEIGHT = 4;

/**
 * A save's input from its request body: checked here when it is small (what the JSON parser gave,
 * or bytes), else the bytes, read and checked with the edit in a worker thread (editSection).
 */
export function saveInput<K extends TSaveableSectionKey>(key: K, body: unknown): SaveInput<K> {
  const check = (value: unknown) => parseOr400(sectionSave(key).payload, value) as TSectionPayloadNormal<K>;
  if (!(body instanceof Uint8Array)) return { payload: check(body) };
  if (body.byteLength * BODY_BYTE_WEIGHT >= OFFLOAD_MIN_BYTES) return { body };
  return { payload: check(parseJsonBytes(body)) };
}

/** An edit's ConfigXmlError as the answer the administrator sees. */
export function editFailure(err: ConfigXmlError): AppError {
  switch (err.code) {
    case 'invalid-payload':
      return invalidPayload(err.issues ?? [{ path: '', message: err.message }]);
    case 'unknown-reference':
      return new AppError(400, err.message, 'unknown-reference');
    case 'secret-destination':
      return new AppError(400, err.message, 'secret-destination');
    case 'terminal-index':
      return new AppError(400, 'Impossible de déterminer le terminal à mettre à jour', 'terminal-index');
    default:
      return unreadableConfiguration(err);
  }
}

/** The section's edit of `doc` with a checked payload; its failures as answers (editFailure). */
export function applyEdit<K extends TSaveableSectionKey>(
  key: K,
  doc: ConfigDocument,
  payload: TSectionPayloadNormal<K>,
): string {
  try {
    return SECTION_SAVERS[key].edit(doc, payload);
  } catch (err) {
    if (err instanceof ConfigXmlError) throw editFailure(err);
    throw err;
  }
}

interface SectionEditTaskInput {
  key: TSaveableSectionKey;
  text: string;
  /** The stored text's scan, done already (parseStoredOffThread): not done twice. */
  layout: TransferredLayout;
  payload?: unknown;
  body?: Uint8Array;
}

/**
 * The same in a worker thread: the body (when sent as bytes) read and checked as the route checks
 * a small one, then the edit. Its failures cross as AppError (a 400 for the payload, as here).
 */
export const sectionEditTask = defineTask(
  'config.section-edit',
  ({ key, text, layout, payload, body }: SectionEditTaskInput): string => {
    if (!Object.hasOwn(SECTION_SAVERS, key)) throw new Error(`section inconnue : ${String(key)}`);
    const checked = body ? parseOr400(sectionSave(key).payload, parseJsonBytes(body)) : payload;
    return applyEdit(key, documentFromLayout(text, layout), checked as never);
  },
);

/**
 * Bytes of the edit's work: the sections it reads (SectionSaver.reads) and the body (weighed,
 * BODY_BYTE_WEIGHT). From OFFLOAD_MIN_BYTES the edit runs in a worker thread: adding or removing
 * 100 000 families takes 0.5 to 1 s (measured on a 2-core machine), emptying 512 Ko of stored
 * families 7 to 15 ms, and the largest edits of the other sections on a usual document 1 to 25 ms.
 */
export function editBytes<K extends TSaveableSectionKey>(
  key: K,
  doc: ConfigDocument,
  input: SaveInput<K>,
): number {
  let bytes = 'body' in input ? input.body.byteLength * BODY_BYTE_WEIGHT : 0;
  for (const name of SECTION_SAVERS[key].reads) {
    const range = doc.range(name);
    if (range) bytes += range.end - range.start;
  }
  return bytes;
}

/**
 * The new text of a save: edited here when the work is small, else in a worker thread, which is
 * given the scan of the stored text and the body's bytes (moved, not copied).
 */
export async function editSection<K extends TSaveableSectionKey>(
  offload: Offload,
  key: K,
  text: string,
  doc: ConfigDocument,
  input: SaveInput<K>,
): Promise<string> {
  if ('payload' in input && editBytes(key, doc, input) < OFFLOAD_MIN_BYTES)
    return applyEdit(key, doc, input.payload);
  const layout = transferLayout(doc);
  if ('payload' in input)
    return offload.run(
      sectionEditTask,
      { key, text, layout: layout.value, payload: input.payload },
      layout.transfer,
    );
  const { bytes, buffer } = transferable(input.body);
  return offload.run(sectionEditTask, { key, text, layout: layout.value, body: bytes }, [
    ...layout.transfer,
    buffer,
  ]);
}
