import { describe, expect, it } from 'vitest';
import { decodeOrder, encodeOrder, orderPayloadOf, orderXml, MAX_ORDER_PAYLOAD } from '../src/order-codec.ts';
import { order } from './helpers.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The order exactly as the legacy protocol writes it (docs/spec-notes.md, Automate). */
const LEGACY_ORDER =
  '<Automate><IDInterne_Demande>3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7f8a9b</IDInterne_Demande><Instruction>SYNCHRO</Instruction>' +
  '<TimeStamp>2025-11-14T08:09:52.542Z</TimeStamp><SYNCHRO><TypeSync>I</TypeSync>' +
  '<Connecteur_Exe>C:\\Connecteur\\Synchro.exe</Connecteur_Exe><Connecteur_Indice>DEMO-EB15</Connecteur_Indice>' +
  '<LCommande3/><IDSynchro>DEMOA001</IDSynchro><IDDeviceDemandeur>Connecteur</IDDeviceDemandeur>' +
  '</SYNCHRO></Automate>';

describe('decodeOrder', () => {
  it('reads the order of the legacy protocol', () => {
    const decoded = decodeOrder(b64(LEGACY_ORDER), 'DEMOA001');
    expect(decoded).toEqual({
      ok: true,
      order: {
        requestId: '3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7f8a9b',
        timestamp: '2025-11-14T08:09:52.542Z',
        type: 'I',
        connectorExe: 'C:\\Connecteur\\Synchro.exe',
        connectorIndex: 'DEMO-EB15',
        syncId: 'DEMOA001',
        requester: 'Connecteur',
      },
    });
  });

  it('reads back what encodeOrder writes, escaped text and non-ASCII included', () => {
    const o = order({ type: 'R', connectorExe: 'C:\\Programmes & Cie\\Exécutable <64>.exe' });
    expect(decodeOrder(encodeOrder(o), 'DEMOA001')).toEqual({ ok: true, order: o });
    expect(orderXml(o)).toContain('&amp; Cie\\Exécutable &lt;64&gt;.exe');
    expect(orderXml(o).startsWith('<Automate>')).toBe(true);
  });

  it('accepts an XML declaration and a BOM', () => {
    expect(
      decodeOrder(b64(`\ufeff<?xml version="1.0" encoding="utf-8"?>${LEGACY_ORDER}`), 'DEMOA001').ok,
    ).toBe(true);
  });

  it.each([
    ['not base64 (bad length)', 'QUJDR', /base64/],
    ['base64 of no XML at all', 'QUJD', /XML valide \(mal formé à la ligne 1, colonne \d+\)/],
    ['not XML', b64('bonjour'), /XML valide/],
    ['an unclosed element', b64(LEGACY_ORDER.replace('</Automate>', '')), /XML valide/],
    ['another root', b64(LEGACY_ORDER.replaceAll('Automate>', 'Ordre>')), /racine est Ordre/],
    ['a DTD', b64(`<!DOCTYPE Automate [<!ENTITY x "y">]>${LEGACY_ORDER}`), /XML valide \(DTD refusée\)/],
    ['no uuid', b64(LEGACY_ORDER.replace('3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7f8a9b', '42')), /uuid/],
    ['another instruction', b64(LEGACY_ORDER.replace('<Instruction>SYNCHRO', '<Instruction>ARRET')), /ARRET/],
    ['a bad timestamp', b64(LEGACY_ORDER.replace('2025-11-14T08:09:52.542Z', 'hier')), /TimeStamp/],
    ['no SYNCHRO element', b64(LEGACY_ORDER.replace(/<SYNCHRO>.*<\/SYNCHRO>/, '')), /SYNCHRO manque/],
    [
      'an unknown type',
      b64(LEGACY_ORDER.replace('<TypeSync>I', '<TypeSync>X')),
      /type de synchronisation « X »/,
    ],
    [
      'another installation',
      b64(LEGACY_ORDER.replace('DEMOA001', 'AUTRE42')),
      /« AUTRE42 » ne correspond pas/,
    ],
    ['invalid UTF-8', Buffer.from([0x3c, 0xff, 0xfe, 0x3e]).toString('base64'), /UTF-8/],
  ])('refuses %s with a French reason', (_label, payload, reason) => {
    const decoded = decodeOrder(payload, 'DEMOA001');
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.reason).toMatch(/^Demande refusée : /);
      expect(decoded.reason).toMatch(reason);
    }
  });

  it('names the request it refuses once the uuid could be read', () => {
    const decoded = decodeOrder(b64(LEGACY_ORDER.replace('<TypeSync>I', '<TypeSync>Z')), 'DEMOA001');
    expect(decoded).toMatchObject({ ok: false, requestId: '3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7f8a9b' });
  });

  it('refuses base64 that does not round-trip and oversized payloads', () => {
    expect(decodeOrder('QUJDRA=B', 'DEMOA001').ok).toBe(false);
    expect(decodeOrder('A'.repeat(MAX_ORDER_PAYLOAD + 4), 'DEMOA001')).toMatchObject({
      ok: false,
      reason: /volumineuse/,
    });
  });
});

describe('orderPayloadOf', () => {
  it('takes the whole path after the first slash, slashes and percent-escapes included', () => {
    expect(orderPayloadOf('/PEF1dG9t/YXRl+Pg==')).toBe('PEF1dG9t/YXRl+Pg==');
    expect(orderPayloadOf('/PEF1dG9tYXRlPg%3D%3D')).toBe('PEF1dG9tYXRlPg==');
  });

  it.each(['/', '/favicon.ico', '/a?b=1', '/%E0%A4%A', 'sans-slash', '/x y'])(
    'is not an order: %s',
    (path) => {
      expect(orderPayloadOf(path)).toBeNull();
    },
  );
});
