import type { TSyncType } from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import { escapeText } from '../xml/escape.ts';

/**
 * The legacy sync order (docs/spec-notes.md, Automate): the `Automate` XML,
 * serialised without declaration, then standard base64 without line breaks, sent as the path of
 * one `GET http://IP:PORT/<payload>`. The console writes it; the simulator reads it.
 */
export interface AutomateOrder {
  /** IDInterne_Demande: a fresh uuid for each order. */
  requestId: string;
  /** TimeStamp: ISO 8601, UTC. */
  timestamp: string;
  type: TSyncType;
  /** Connecteur_Exe: Info/Exe as the connector stores it (its text convention kept). */
  connectorExe: string;
  /** Connecteur_Indice: Info/Serial as the connector stores it. */
  connectorIndex: string;
  /** IDSynchro: the installation's sync id. */
  syncId: string;
  /** IDDeviceDemandeur: 'Connecteur' from the console. */
  requester: string;
}

/** IDDeviceDemandeur of the console's orders. */
export const ORDER_REQUESTER = 'Connecteur';

function element(name: string, value: string): string {
  return value === '' ? `<${name}/>` : `<${name}>${escapeText(value, '\n')}</${name}>`;
}

/** The order XML, without declaration, on one line. */
export function automateOrderXml(order: AutomateOrder): string {
  return (
    '<Automate>' +
    element('IDInterne_Demande', order.requestId) +
    element('Instruction', 'SYNCHRO') +
    element('TimeStamp', order.timestamp) +
    '<SYNCHRO>' +
    element('TypeSync', order.type) +
    element('Connecteur_Exe', order.connectorExe) +
    element('Connecteur_Indice', order.connectorIndex) +
    '<LCommande3/>' +
    element('IDSynchro', order.syncId) +
    element('IDDeviceDemandeur', order.requester) +
    '</SYNCHRO></Automate>'
  );
}

/** The path payload of an order: standard base64 (with padding, no line break) of its UTF-8 XML. */
export function encodeAutomateOrder(order: AutomateOrder): string {
  const bytes = new TextEncoder().encode(automateOrderXml(order));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return btoa(binary);
}

/**
 * `Info/Exe` and `Info/Serial` as the connector stores them (XML-unescaped, its text convention
 * kept: the automate compares them with its own copy); '' when absent.
 */
export function readOrderIdentity(doc: ConfigDocument): { connectorExe: string; connectorIndex: string } {
  const ix = doc.index;
  const info = ix.child(0, 'Info');
  const stored = (name: string) => {
    const el = ix.child(info, name);
    return el < 0 ? '' : ix.xmlText(el);
  };
  return { connectorExe: stored('Exe'), connectorIndex: stored('Serial') };
}
