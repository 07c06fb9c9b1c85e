/**
 * The legacy sync order (docs/spec-notes.md, Automate): the Automate XML, serialised without declaration,
 * then standard base64 without line breaks, sent as the path of one GET. `decodeOrder` reads and
 * checks it as the automate service does; `encodeOrder` writes one (tests, scripted peers).
 */
import { automateOrderXml, encodeAutomateOrder, type AutomateOrder } from '@synchro/config-xml';
import { childOf, childText, parseXml, XmlReadError } from './xml-tree.ts';

export type SyncType = 'C' | 'R' | 'I';
export const SYNC_TYPES: readonly SyncType[] = ['C', 'R', 'I'];

/** The order's fields: config-xml's AutomateOrder (the console writes orders with the same code). */
export type SyncOrder = AutomateOrder;

export type DecodedOrder = { ok: true; order: SyncOrder } | { ok: false; reason: string; requestId?: string };

/** Orders larger than this are refused before decoding (a real one is well under 2 KB). */
export const MAX_ORDER_PAYLOAD = 16 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const BASE64_CHARS = /^[A-Za-z0-9+/]+={0,2}$/;

/** The order XML, without declaration. */
export const orderXml = automateOrderXml;

/** The URL path payload of an order: base64 of its UTF-8 XML. */
export const encodeOrder = encodeAutomateOrder;

/**
 * The payload of a request path when it can be an order (characters of standard base64 only,
 * percent-escapes allowed), else null: such requests are not orders at all (404).
 */
export function orderPayloadOf(rawPath: string): string | null {
  if (!rawPath.startsWith('/') || rawPath.includes('?') || rawPath.includes('#')) return null;
  let path: string;
  try {
    path = decodeURIComponent(rawPath.slice(1));
  } catch {
    return null;
  }
  return path !== '' && BASE64_CHARS.test(path) ? path : null;
}

function refuse(reason: string, requestId?: string): DecodedOrder {
  return requestId === undefined ? { ok: false, reason } : { ok: false, reason, requestId };
}

/** Reads an order payload and checks it against this installation's sync id. */
export function decodeOrder(payload: string, expectedSyncId: string): DecodedOrder {
  if (payload.length > MAX_ORDER_PAYLOAD) {
    return refuse('Demande refusée : la demande de synchronisation est trop volumineuse.');
  }
  if (payload.length % 4 !== 0 || !BASE64_CHARS.test(payload)) {
    return refuse("Demande refusée : la demande de synchronisation n'est pas encodée en base64.");
  }
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.toString('base64') !== payload) {
    return refuse("Demande refusée : la demande de synchronisation n'est pas encodée en base64.");
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse("Demande refusée : la demande de synchronisation n'est pas un texte UTF-8.");
  }
  let root;
  try {
    root = parseXml(text);
  } catch (err) {
    const detail = err instanceof XmlReadError ? ` (${err.message})` : '';
    return refuse(`Demande refusée : la demande de synchronisation n'est pas un XML valide${detail}.`);
  }
  if (root.name !== 'Automate') {
    return refuse(`Demande refusée : l'élément racine est ${root.name} au lieu de Automate.`);
  }
  const rawId = childText(root, 'IDInterne_Demande');
  const requestId = rawId !== undefined && UUID.test(rawId) ? rawId : undefined;
  if (requestId === undefined) {
    return refuse("Demande refusée : l'identifiant de la demande (IDInterne_Demande) n'est pas un uuid.");
  }
  const instruction = childText(root, 'Instruction');
  if (instruction !== 'SYNCHRO') {
    return refuse(
      `Demande refusée : instruction ${instruction ? `« ${instruction} » ` : ''}inconnue (SYNCHRO attendue).`,
      requestId,
    );
  }
  const timestamp = childText(root, 'TimeStamp') ?? '';
  if (!ISO_TIME.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    return refuse("Demande refusée : l'horodatage (TimeStamp) n'est pas une date ISO 8601.", requestId);
  }
  const body = childOf(root, 'SYNCHRO');
  if (body === undefined) return refuse("Demande refusée : l'élément SYNCHRO manque.", requestId);
  const type = childText(body, 'TypeSync') ?? '';
  if (!(SYNC_TYPES as readonly string[]).includes(type)) {
    return refuse(`Demande refusée : type de synchronisation « ${type} » inconnu (C, R ou I).`, requestId);
  }
  const syncId = childText(body, 'IDSynchro') ?? '';
  if (syncId !== expectedSyncId) {
    return refuse(
      `Demande refusée : l'identifiant de synchronisation « ${syncId} » ne correspond pas à cette installation.`,
      requestId,
    );
  }
  return {
    ok: true,
    order: {
      requestId,
      timestamp,
      type: type as SyncType,
      connectorExe: childText(body, 'Connecteur_Exe') ?? '',
      connectorIndex: childText(body, 'Connecteur_Indice') ?? '',
      syncId,
      requester: childText(body, 'IDDeviceDemandeur') ?? '',
    },
  };
}
