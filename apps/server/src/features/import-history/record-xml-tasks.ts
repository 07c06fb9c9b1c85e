import { ZSyncHistoryXmlRequest } from '@synchro/contracts';
import { parseJsonBytes } from '../../http/json-body.ts';
import { parseOr400 } from '../../http/validate.ts';
import { defineTask } from '../../offload/task.ts';
import { xmlForStorage, xmlView } from './record-xml.ts';

/**
 * The record XML editor's work on a big record (up to 50 MB), in a worker thread: decoding it and
 * listing its attached documents for display; reading the saved body, checking and encoding it.
 */

export const xmlViewTask = defineTask('history.xml-view', (stored: string) => xmlView(stored));

export const xmlSaveTask = defineTask('history.xml-save', ({ body }: { body: Uint8Array }) =>
  xmlForStorage(parseOr400(ZSyncHistoryXmlRequest, parseJsonBytes(body)).xml),
);
