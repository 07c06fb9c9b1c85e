import { decodeConnectorText } from '@synchro/config-xml';
import { describe, expect, it } from 'vitest';
import { buildAnswer } from '../src/answer-builder.ts';
import { childText, parseXml } from '../src/xml-tree.ts';

const lines = [
  'La synchronisation complète a démarré sur SRV-ERP.',
  "Les données seront à jour d'ici quelques minutes.",
];

function read(xml: string) {
  const root = parseXml(xml);
  return {
    root: root.name,
    retSync: childText(root, 'RetSync'),
    retInfo: root.children.find((c) => c.name === 'RetInfo')?.text,
  };
}

describe('buildAnswer', () => {
  it('writes RetSync and RetInfo in a valid XML document, without artefacts by default', () => {
    const xml = buildAnswer({ retSync: 1, lines, requestId: '3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7f8a9b' });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(read(xml)).toEqual({ root: 'Automate', retSync: '1', retInfo: lines.join('\n') });
    expect(childText(parseXml(xml), 'IDInterne_Demande')).toBe('3f2b8c1e-9d4a-4b7e-8f21-0c5d6e7f8a9b');
  });

  it('escapes markup in the message', () => {
    const xml = buildAnswer({ retSync: 0, lines: ['Refusé : <script> & co'] });
    expect(xml).toContain('Refusé : &lt;script&gt; &amp; co');
    expect(read(xml)).toMatchObject({ retSync: '0', retInfo: 'Refusé : <script> & co' });
  });

  it('writes apostrophes double-escaped when asked: the parsed text holds &apos;', () => {
    const xml = buildAnswer({ retSync: 1, lines }, { doubleEscapedApos: true });
    expect(xml).toContain('d&amp;apos;ici');
    expect(read(xml).retInfo).toBe(
      'La synchronisation complète a démarré sur SRV-ERP.\nLes données seront à jour d&apos;ici quelques minutes.',
    );
  });

  it('joins the lines with literal /n markers when asked', () => {
    expect(read(buildAnswer({ retSync: 1, lines }, { lineMarkers: true })).retInfo).toBe(lines.join('/n'));
  });

  it("writes the text in the connector's convention when asked (double-encoded UTF-8)", () => {
    const xml = buildAnswer({ retSync: 1, lines }, { connectorText: true });
    const info = read(xml).retInfo ?? '';
    expect(info).toContain('complÃ¨te a dÃ©marrÃ©');
    expect(decodeConnectorText(info)).toBe(lines.join('\n'));
    // Sent as UTF-8: `è` became the two characters Ã and ¨, four bytes on the wire.
    expect(Buffer.from(xml, 'utf8').includes(Buffer.from([0xc3, 0x83, 0xc2, 0xa8]))).toBe(true);
  });

  it('combines the three artefacts in one valid document', () => {
    const xml = buildAnswer(
      { retSync: 1, lines },
      { doubleEscapedApos: true, lineMarkers: true, connectorText: true },
    );
    const info = read(xml).retInfo ?? '';
    expect(info).toContain('/n');
    expect(info).toContain('&apos;');
    expect(info).toContain('Ã©');
    const cleaned = decodeConnectorText(info.replaceAll('&apos;', "'")).replaceAll('/n', '\n');
    expect(cleaned).toBe(lines.join('\n'));
  });
});
