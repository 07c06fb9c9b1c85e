import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeConnectorText, encodeConnectorText, displayValue, undoDoubleEscaping } from '../src/codec.ts';

describe('connector text codec', () => {
  const cases: [string, string][] = [
    ['Léa', 'LÃ©a'],
    ['Complète', 'ComplÃ¨te'],
    ['Garçon', 'GarÃ§on'],
    ['Cœur', 'CÅ\u0093ur'],
    ['10 €', '10 â\u0082¬'],
    ['à', 'Ã\u00a0'],
    ['😀 ok', 'ð\u009f\u0098\u0080 ok'],
    ['ALARME et Sécurité', 'ALARME et SÃ©curitÃ©'],
  ];
  it.each(cases)('encodes %s as its UTF-8 bytes read as Latin-1', (plain, stored) => {
    expect(encodeConnectorText(plain)).toBe(stored);
    expect(decodeConnectorText(stored)).toBe(plain);
  });

  it('keeps ASCII unchanged both ways', () => {
    expect(decodeConnectorText('SQLOLEDB localhost\\ebp')).toBe('SQLOLEDB localhost\\ebp');
    expect(encodeConnectorText('abc <&> 123')).toBe('abc <&> 123');
    expect(decodeConnectorText('')).toBe('');
  });

  it('keeps text that is not in the connector convention (already plain) as is', () => {
    expect(decodeConnectorText('Léa')).toBe('Léa'); // é alone is not valid UTF-8
    expect(decodeConnectorText('Cœur')).toBe('Cœur'); // œ is no byte
    expect(decodeConnectorText('10 €')).toBe('10 €');
    expect(decodeConnectorText('l’été')).toBe('l’été');
    expect(decodeConnectorText('😀')).toBe('😀');
    expect(decodeConnectorText('••••••••')).toBe('••••••••');
  });

  it('keeps a mixed text (plain accent beside an encoded one) as is', () => {
    expect(decodeConnectorText('é et Ã©')).toBe('é et Ã©');
  });

  it('reads bytes taken as Windows-1252 too (€ written â‚¬)', () => {
    expect(decodeConnectorText('10 â‚¬')).toBe('10 €');
    expect(decodeConnectorText('CÅ“ur')).toBe('Cœur');
  });

  it('undoes one level of double escaping for display', () => {
    expect(undoDoubleEscaping('Bons d&apos;entrée')).toBe("Bons d'entrée");
    expect(undoDoubleEscaping('a &amp; b &lt;c&gt; &quot;d&quot;')).toBe('a & b <c> "d"');
    expect(undoDoubleEscaping('R&D')).toBe('R&D');
    expect(displayValue('Bons d&apos;entrÃ©e')).toBe("Bons d'entrée");
  });

  it('round-trips any string without lone surrogates', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodeConnectorText(encodeConnectorText(s))).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('encoded text only holds characters up to U+00FF', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect([...encodeConnectorText(s)].every((ch) => ch.charCodeAt(0) <= 0xff)).toBe(true);
      }),
    );
  });

  it('decodes exactly as a strict UTF-8 decoder over the bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const reference = (s: string): string => {
      try {
        return strict.decode(Uint8Array.from(s, (ch) => ch.charCodeAt(0)));
      } catch {
        return s;
      }
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 }), (bytes) => {
        const s = String.fromCharCode(...bytes);
        expect(decodeConnectorText(s)).toBe(reference(s));
      }),
      { numRuns: 20000 },
    );
  });
});
