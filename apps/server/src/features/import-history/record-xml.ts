import {
  HISTORY_MESSAGES,
  utf8ByteLength,
  type TRecordAttachmentView,
  type TSyncHistoryXml,
  type TSyncHistoryXmlError,
} from '@synchro/contracts';
import {
  ConfigXmlError,
  decodeRecordText,
  parseRecord,
  RECORD_MAX_BYTES,
  recordAttachments,
  recordTextForStorage,
} from '@synchro/config-xml';
import { AppError } from '../../http/errors.ts';

/**
 * The record XML between the connector's convention (stored) and the editor (shown): decoded for
 * display, checked safely and encoded again on save (docs/spec-notes.md, Import records and
 * transactions).
 */

const MB = 1024 * 1024;
const megabytes = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The 413 answer: the spec's message followed by the size, and both sizes for the screen. */
export function xmlTooLargeBody(sizeBytes: number): TSyncHistoryXmlError {
  const message = `${HISTORY_MESSAGES.xmlTooLarge} (${megabytes.format(sizeBytes / MB)} MB ; au plus 50 MB).`;
  return { message, code: 'XML_TOO_LARGE', error: message, sizeBytes, maxBytes: RECORD_MAX_BYTES };
}

/** GET …/xml: the record decoded, its size, and its attached documents (names and sizes only). */
export function xmlView(stored: string): TSyncHistoryXml {
  const enreg = decodeRecordText(stored);
  let attachments: TRecordAttachmentView[] = [];
  try {
    attachments = recordAttachments(stored).map((a) => ({
      name: a.name,
      size: a.size,
      nameElement: a.nameElement,
      contentElement: a.contentElement,
      path: a.path,
    }));
  } catch (err) {
    // A stored record is checked on arrival; one that no longer reads is still shown as text.
    if (!(err instanceof ConfigXmlError)) throw err;
  }
  return { enreg, sizeBytes: utf8ByteLength(enreg), attachments };
}

/**
 * PUT …/xml: the XML as typed, refused over 50 MB (the 413 body) or when the safe check fails (400: not
 * well-formed, a DOCTYPE, an entity beyond the five, too deep, a forbidden character); else its
 * stored form in the connector's convention: encoded once when it was sent decoded (our screens),
 * kept when it was sent already encoded (the earlier console's client: recordTextForStorage).
 */
export function xmlForStorage(
  xml: string,
): { tooLarge: TSyncHistoryXmlError } | { tooLarge: null; stored: string; sizeBytes: number } {
  const sizeBytes = utf8ByteLength(xml, RECORD_MAX_BYTES);
  if (sizeBytes > RECORD_MAX_BYTES) return { tooLarge: xmlTooLargeBody(utf8ByteLength(xml)) };
  try {
    parseRecord(xml);
  } catch (err) {
    if (err instanceof ConfigXmlError) {
      throw new AppError(400, `Le XML de l'enregistrement est invalide : ${err.message}`, 'INVALID_XML');
    }
    throw err;
  }
  return { tooLarge: null, stored: recordTextForStorage(xml), sizeBytes };
}
