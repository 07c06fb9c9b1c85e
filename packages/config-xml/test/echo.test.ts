import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TSectionPayloadNormal } from '@synchro/contracts';
import * as X from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

/**
 * Sending back what a view shows must give the document back byte for byte, whatever the
 * document holds around its values: comments, PIs, CDATA, blanks and line breaks inside values,
 * unknown elements with attributes.
 */
const afterTags: number[] = [];
for (let i = FIXTURE.indexOf('<Connexion>') + 11; i < FIXTURE.lastIndexOf('</Connexion>'); i++) {
  if (FIXTURE[i] === '>') afterTags.push(i + 1);
}
const INSERTS = ['<!-- c -->', '<?pi x?>', '<![CDATA[]]>', ' ', '\r\n', '<Extra a="1">v</Extra>'];

describe('echo of every view', () => {
  it('returns identical bytes on documents with nodes inserted anywhere', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...afterTags), fc.constantFrom(...INSERTS)), { maxLength: 8 }),
        fc.integer({ min: 0, max: 24 }),
        (inserts, ti) => {
          let t = FIXTURE;
          for (const [p, s] of [...inserts].sort((a, b) => b[0] - a[0])) t = t.slice(0, p) + s + t.slice(p);
          let d: X.ConfigDocument;
          try {
            d = X.parseConfig(t);
          } catch (e) {
            expect(e).toBeInstanceOf(X.ConfigXmlError); // e.g. CDATA landed between the root and a section
            return;
          }
          checked++;
          expect(X.editSources(t, X.readSources(d))).toBe(t);
          expect(X.editExternalLinks(t, X.readExternalLinks(d))).toBe(t);
          const c = X.readExternalCalendars(d);
          expect(
            X.editExternalCalendars(t, { agendaType: c.agendaType as 'Google', mappings: c.mappings }),
          ).toBe(t);
          expect(X.editSyncData(t, X.readSyncData(d))).toBe(t);
          expect(X.editExclusions(t, X.readExclusions(d))).toBe(t);
          expect(X.editComplement(t, X.readComplement(d) as TSectionPayloadNormal<'complement'>)).toBe(t);
          const term = X.readTerminals(d).terminals[ti]!;
          expect(X.editTerminal(t, ti, term)).toBe(t);
          // and a real change still gives a document that reads back
          term.Nom = 'Nouveau é';
          for (const a of term.authorizations) a.Autorise = 1;
          const out = X.editTerminal(t, ti, term);
          const back = X.readTerminals(X.parseConfig(out)).terminals[ti]!;
          expect(back.Nom).toBe('Nouveau é');
          expect(back.authorizations.every((a) => a.Autorise === 1)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});
