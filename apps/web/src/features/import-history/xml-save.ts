import { CONNECTOR_LIMITS, recordXmlTooLargeMessage } from '@synchro/contracts';
import { ApiError, type LongText } from '../../lib/api-client.ts';
import { HISTORY_TEXT } from './history-messages.ts';
import { RecordEncodingError, type OpenedRecord } from './record-document.ts';

const MB = 1024 * 1024;
const megabytes = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 51,2 (MB of 1 048 576 bytes, as the server counts them). */
export function formatMegabytes(bytes: number): string {
  return megabytes.format(bytes / MB);
}

export type PreparedXml = { ok: true; xml: LongText; sizeBytes: number } | { ok: false; message: string };

/**
 * The record as it will be sent: serialised with the edits, refused when a value cannot be encoded
 * or when the text exceeds 50 MB (docs/spec-notes.md, Import records and transactions), before
 * anything is sent.
 */
export function prepareXml(record: OpenedRecord | null, edits: ReadonlyMap<number, string>): PreparedXml {
  if (!record) return { ok: false, message: HISTORY_TEXT.xmlOriginalMissing };
  let serialized: { xml: LongText; sizeBytes: number };
  try {
    serialized = record.serialize(edits);
  } catch (error) {
    if (error instanceof RecordEncodingError) return { ok: false, message: error.message };
    return { ok: false, message: HISTORY_TEXT.xmlSaveFallback };
  }
  const { xml, sizeBytes } = serialized;
  if (sizeBytes > CONNECTOR_LIMITS.enregMaxBytes) {
    return { ok: false, message: recordXmlTooLargeMessage(sizeBytes) };
  }
  return { ok: true, xml, sizeBytes };
}

/**
 * What a refused save says (docs/spec-notes.md, Import history and transaction trace): 413 → the
 * server's « trop volumineux » text with the size; any other answer → its error text, else 'Échec
 * de la mise à jour'; anything else (the request never answered) → 'Impossible de sauvegarder les
 * modifications'.
 */
export function xmlSaveErrorMessage(error: unknown, sizeBytes: number): string {
  if (error instanceof ApiError) {
    if (error.status === 413) {
      return error.detail.startsWith(HISTORY_TEXT.xmlTooLargeServer)
        ? error.detail
        : `${HISTORY_TEXT.xmlTooLargeServer} (${formatMegabytes(sizeBytes)} MB).`;
    }
    const text = error.detail.trim();
    // An HTML page (a proxy's) is no message for the user.
    return text && !text.startsWith('<') ? text : HISTORY_TEXT.xmlUpdateFailed;
  }
  return HISTORY_TEXT.xmlSaveFallback;
}
