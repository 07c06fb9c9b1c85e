import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  LIBRE_ID,
  SECRET_PLACEHOLDER,
  SECRET_DESTINATIONS,
  movedSecretIssues,
  TERMINAL_FREE_NAME,
  ZComplementPayload,
  ZExclusionsPayload,
  ZPlanificationsPayload,
  ZSourcesPayload,
  ZSyncDataPayload,
  type TExclusionType,
} from '@synchro/contracts';
import {
  ConfigXmlError,
  editComplement,
  editExclusions,
  editExternalCalendars,
  editExternalLinks,
  editPlanifications,
  editSources,
  editSyncData,
  editTerminal,
  parseConfig,
  readComplement,
  readDataLists,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readPlanifications,
  readSources,
  readSyncData,
  readTerminals,
  SECTION_ORDER,
} from '../src/index.ts';
import { childrenNamed, childNamed, xmlText } from '../src/xml/tree.ts';
import { displayValue } from '../src/codec.ts';
import { expectOnlySectionChanged } from './edit-helpers.ts';
import { FIXTURE, spacedSelfClose } from './helpers.ts';

// ---------------------------------------------------------------------------------------------
// Random documents built from the fixture: sections removed and reordered, LF or CRLF, BOM or
// not, `<Tag/>` or `<Tag />`.

const base = parseConfig(FIXTURE);
const SECTIONS = base.layout.sections.map((s) => ({ name: s.name, text: FIXTURE.slice(s.start, s.end) }));

interface DocShape {
  keep: boolean[];
  order: number[];
  lf: boolean;
  bom: boolean;
  spaced: boolean;
}

const docShape = (mustKeep: string[] = []): fc.Arbitrary<DocShape> =>
  fc
    .record({
      keep: fc.array(fc.boolean(), { minLength: SECTIONS.length, maxLength: SECTIONS.length }),
      order: fc.shuffledSubarray(
        SECTIONS.map((_, i) => i),
        { minLength: SECTIONS.length, maxLength: SECTIONS.length },
      ),
      lf: fc.boolean(),
      bom: fc.boolean(),
      spaced: fc.boolean(),
    })
    .map((s) => ({ ...s, keep: s.keep.map((k, i) => k || mustKeep.includes(SECTIONS[i]!.name)) }));

function buildDoc(shape: DocShape): string {
  const parts = shape.order.filter((i) => shape.keep[i]).map((i) => SECTIONS[i]!.text);
  let text =
    '<?xml version="1.0" encoding="UTF-8"?>\r\n<Connexion>' +
    parts.map((p) => '\r\n  ' + p).join('') +
    '\r\n</Connexion>\r\n';
  if (shape.lf) text = text.replace(/\r\n/g, '\n');
  if (shape.spaced) text = spacedSelfClose(text);
  if (shape.bom) text = '\uFEFF' + text;
  return text;
}

const docs = (mustKeep: string[] = []): fc.Arbitrary<string> => docShape(mustKeep).map(buildDoc);

// ---------------------------------------------------------------------------------------------
// Values: accents, emoji, characters XML escapes, characters of the connector's encoding.

const CHARS = [
  'a',
  'B',
  'z',
  '0',
  '9',
  ' ',
  'é',
  'è',
  'ç',
  'œ',
  '€',
  '😀',
  '&',
  '<',
  '>',
  '"',
  "'",
  '\t',
  '\\',
  '/',
  'ß',
  'Ã',
  '©',
  '|',
  '.',
];
const WORD_CHARS = ['a', 'B', 'z', '0', '7', 'é', 'è', 'ç', 'œ', '€', '😀', '_', '-', '&', '<', 'Ã', '©'];
const line = fc.array(fc.constantFrom(...CHARS), { maxLength: 14 }).map((a) => a.join(''));
const word = fc.array(fc.constantFrom(...WORD_CHARS), { minLength: 1, maxLength: 10 }).map((a) => a.join(''));
/**
 * « Notification par email »: empty, or up to three well-formed addresses (the edit refuses others:
 * emailListProblem), their characters drawn from the same set as the other texts.
 */
const addressPart = (extra: RegExp) =>
  fc
    .array(fc.constantFrom(...CHARS.filter((c) => !/[\s@;,<>"]/.test(c) && !extra.test(c))), {
      minLength: 1,
      maxLength: 6,
    })
    .map((a) => a.join(''));
const addresses = fc
  .array(
    fc.tuple(addressPart(/(?!)/), addressPart(/\./)).map(([local, domain]) => `${local}@${domain}.fr`),
    { maxLength: 3 },
  )
  .map((list) => list.join('; '));
const multiline = fc
  .array(fc.oneof(line, fc.constant('\n'), fc.constant('\r\n')), { maxLength: 6 })
  .map((a) => a.join(''));
const flag = fc.oneof(
  fc.boolean(),
  fc.constantFrom<0 | 1 | '0' | '1' | 'true' | 'false'>(0, 1, '0', '1', 'true', 'false'),
);
const secret = fc.oneof(fc.constant(SECRET_PLACEHOLDER), fc.constant(''), word);

const RUNS = { numRuns: 120 };

/** Raw stored value of the child `name` of each `item` element of a section path. */
function rawValues(text: string, section: string, path: string[], item: string, name: string): string[] {
  let el = parseConfig(text).section(section);
  for (const p of path) el = childNamed(el, p);
  return childrenNamed(el, item).map((x) => {
    const c = childNamed(x, name);
    return c ? xmlText(c) : '';
  });
}

describe('property: read(edit(doc, p)) gives p back, bytes outside the section unchanged', () => {
  it('editSources', () => {
    const source = fc.record({
      Provider: word,
      Serveur: line,
      Nom_BDD: line,
      Lecture_Seule: flag,
      Utilisateur: line,
      MDP: secret,
    });
    fc.assert(
      fc.property(docs(), fc.array(source, { maxLength: 7 }), (text, sources) => {
        const payload = { sources };
        const before = readSources(parseConfig(text)).sources;
        const norm = ZSourcesPayload.parse(payload).sources;
        // A kept password whose destination changed: refused, whatever else the payload holds.
        if (movedSecretIssues(SECRET_DESTINATIONS.sources, before, norm).length > 0) {
          expect(() => editSources(text, payload)).toThrow(
            expect.objectContaining({ code: 'secret-destination' }),
          );
          return;
        }
        const out = editSources(text, payload);
        expectOnlySectionChanged(text, out, 'Sources');
        const after = readSources(parseConfig(out)).sources;
        const rawBefore = rawValues(text, 'Sources', [], 'Source', 'MDP');
        const rawAfter = rawValues(out, 'Sources', [], 'Source', 'MDP');
        norm.forEach((s, i) => {
          const got = after[i] ?? before[0]!;
          const stored = before[i]?.MDP ?? '';
          const mdp = s.MDP === SECRET_PLACEHOLDER ? stored : s.MDP === '' ? '' : SECRET_PLACEHOLDER;
          const empty =
            !s.Provider &&
            !s.Serveur &&
            !s.Nom_BDD &&
            !s.Utilisateur &&
            !s.Lecture_Seule &&
            (s.MDP === '' || s.MDP === SECRET_PLACEHOLDER);
          if (after[i] === undefined) expect(empty).toBe(true);
          else
            expect({ ...got, Status: 0, StatusLibelle: '' }).toEqual({
              ...s,
              MDP: mdp,
              Status: 0,
              StatusLibelle: '',
            });
          if (after[i] && before[i])
            expect([got.Status, got.StatusLibelle]).toEqual([before[i]!.Status, before[i]!.StatusLibelle]);
          if (s.MDP === SECRET_PLACEHOLDER && i < rawBefore.length) expect(rawAfter[i]).toBe(rawBefore[i]);
        });
      }),
      RUNS,
    );
  });

  it('editExternalLinks', () => {
    const liaison = fc.record({ Logiciel: line, Config: line, Utilisateur: line, MDP: secret });
    fc.assert(
      fc.property(docs(), line, line, fc.array(liaison, { maxLength: 6 }), (text, imp, exp, Liaisons) => {
        const before = readExternalLinks(parseConfig(text));
        const payload = { Dossier_Import: imp, Dossier_Export: exp, Liaisons };
        if (movedSecretIssues(SECRET_DESTINATIONS.externalLinks, before.Liaisons, Liaisons).length > 0) {
          expect(() => editExternalLinks(text, payload)).toThrow(
            expect.objectContaining({ code: 'secret-destination' }),
          );
          return;
        }
        const out = editExternalLinks(text, payload);
        expectOnlySectionChanged(text, out, 'Liaisons_Externes');
        const after = readExternalLinks(parseConfig(out));
        expect([after.Dossier_Import, after.Dossier_Export]).toEqual([imp, exp]);
        Liaisons.forEach((l, i) => {
          const got = after.Liaisons[i] ?? { Logiciel: '', Config: '', Utilisateur: '', MDP: '' };
          const mdp =
            l.MDP === SECRET_PLACEHOLDER
              ? (before.Liaisons[i]?.MDP ?? '')
              : l.MDP === ''
                ? ''
                : SECRET_PLACEHOLDER;
          expect(got).toEqual({ ...l, MDP: mdp });
        });
        expect(readExternalCalendars(parseConfig(out)).mappings).toEqual(
          readExternalCalendars(parseConfig(text)).mappings,
        );
      }),
      RUNS,
    );
  });

  it('editExternalCalendars', () => {
    const id = fc.oneof(fc.constant(''), fc.constant(LIBRE_ID), word);
    fc.assert(
      fc.property(
        docs(),
        fc.constantFrom('' as const, 'Google' as const, 'Microsoft' as const),
        fc.array(fc.record({ ID_Salarie: id, ID_Agenda: id }), { maxLength: 40 }),
        (text, agendaType, mappings) => {
          const out = editExternalCalendars(text, { agendaType, mappings });
          expectOnlySectionChanged(text, out, 'Liaisons_Externes');
          const after = readExternalCalendars(parseConfig(out));
          expect(after.agendaType).toBe(agendaType);
          const free = (v: string): string => (v === '' ? LIBRE_ID : v);
          const trim = (m: { ID_Salarie: string; ID_Agenda: string }[]) => {
            const n = m.map((x) => ({ ID_Salarie: free(x.ID_Salarie), ID_Agenda: free(x.ID_Agenda) }));
            while (n.length && n.at(-1)!.ID_Salarie === LIBRE_ID && n.at(-1)!.ID_Agenda === LIBRE_ID) n.pop();
            return n;
          };
          expect(trim(after.mappings)).toEqual(trim(mappings));
          expect(after.mappings.length).toBeLessThanOrEqual(Math.max(mappings.length, 0));
          // the links and the agenda token stay
          expect(readExternalLinks(parseConfig(out))).toEqual(readExternalLinks(parseConfig(text)));
          if (text.includes('PGpldG9u'))
            expect(out).toContain('<Valeur>PGpldG9uLWRlLWRlbW9uc3RyYXRpb24vPg==</Valeur>');
        },
      ),
      RUNS,
    );
  });

  it('editSyncData', () => {
    const refs = readSyncData(base).syncData.map((d) => d.Reference);
    const item = fc.record({
      Reference: fc.oneof(fc.constantFrom(...refs), word),
      Complete: flag,
      Libelle: line,
      Histo: fc.oneof(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 10000 }).map(String)),
    });
    fc.assert(
      fc.property(docs(), fc.array(item, { maxLength: 20 }), (text, syncData) => {
        const out = editSyncData(text, { syncData });
        expectOnlySectionChanged(text, out, 'Donnees_A_Synchroniser');
        const before = new Map(readSyncData(parseConfig(text)).syncData.map((d) => [d.Reference, d]));
        const after = new Map(readSyncData(parseConfig(out)).syncData.map((d) => [d.Reference, d]));
        const wanted = new Map(ZSyncDataPayload.parse({ syncData }).syncData.map((d) => [d.Reference, d]));
        for (const [ref, w] of wanted) {
          const got = after.get(ref)!;
          expect([got.Complete, got.Histo]).toEqual([w.Complete, w.Histo]);
          const firstNew = ZSyncDataPayload.parse({ syncData }).syncData.find((d) => d.Reference === ref)!;
          expect(got.Libelle).toBe(before.get(ref)?.Libelle ?? firstNew.Libelle);
        }
        for (const [ref, d] of before) if (!wanted.has(ref)) expect(after.get(ref)).toEqual(d);
      }),
      RUNS,
    );
  });

  it('editExclusions', () => {
    const existing = readExclusions(base).exclusions;
    const ex = fc.oneof(
      fc.constantFrom(...existing).chain((e) => line.map((libelle) => ({ ...e, libelle }))),
      fc.record({
        id: fc
          .tuple(word, fc.option(word, { nil: '' }), fc.boolean())
          .map(([f, s, bar]) => (s || bar ? `${f}|${s}` : f)),
        libelle: line,
        type: fc.constantFrom<TExclusionType>('ItemFamily', 'CustomerFamily', 'SupplierFamily'),
      }),
    );
    fc.assert(
      fc.property(docs(), fc.array(ex, { maxLength: 25 }), (text, exclusions) => {
        const out = editExclusions(text, { exclusions });
        expectOnlySectionChanged(text, out, 'Exclusions');
        const seen = new Set<string>();
        const want: string[] = [];
        for (const e of ZExclusionsPayload.parse({ exclusions }).exclusions) {
          const k = `${e.type} ${e.id}`;
          if (seen.has(k)) continue;
          seen.add(k);
          want.push(`${k} ${e.libelle}`);
        }
        const got = readExclusions(parseConfig(out)).exclusions.map((e) => `${e.type} ${e.id} ${e.libelle}`);
        expect(got.sort()).toEqual(want.sort());
        if (text.includes('NuxiSavOnLine')) expect(out).toContain('<Type>NuxiSavOnLine</Type>');
      }),
      RUNS,
    );
  });

  it('editComplement', () => {
    const payload = fc.record({
      googleApiKey: fc.oneof(line, fc.constant(SECRET_PLACEHOLDER)),
      driveType: fc.constantFrom('none' as const, 'google' as const, 'onedrive' as const, '' as const),
      mailRapport: fc.record({
        envoyerRapport: flag,
        mailDestinataire: addresses,
        notifErr: flag,
        notifInf: flag,
        notifImp: flag,
        globaliserEnregImport: flag,
      }),
      scriptComplementaire: multiline,
    });
    fc.assert(
      fc.property(docs(), payload, (text, p) => {
        const out = editComplement(text, p);
        expectOnlySectionChanged(text, out, 'Complement');
        const key =
          p.googleApiKey === SECRET_PLACEHOLDER
            ? readComplement(parseConfig(text)).googleApiKey
            : p.googleApiKey === ''
              ? ''
              : SECRET_PLACEHOLDER;
        expect(readComplement(parseConfig(out))).toEqual({
          ...ZComplementPayload.parse(p),
          googleApiKey: key,
        });
        if (p.googleApiKey === SECRET_PLACEHOLDER)
          expect(/<APIKey_Google>[^<]*/.exec(out)?.[0]).toBe(/<APIKey_Google>[^<]*/.exec(text)?.[0]);
        const login = (t: string) =>
          parseConfig(t)
            .sectionText('Complement')
            ?.match(/<EspaceClient>[\s\S]*<\/EspaceClient>/)?.[0];
        expect(login(out)).toBe(login(text));
      }),
      RUNS,
    );
  });

  it('editPlanifications', () => {
    const planning = fc.record({
      day: fc.integer({ min: 1, max: 8 }),
      time: fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
      type: fc.constantFrom('C' as const, 'R' as const, 'I' as const),
    });
    const tz = fc.option(
      fc.record({
        value: fc.oneof(
          fc.constantFrom('+01:00', '-05:30', '+00:00'),
          fc.integer({ min: -12, max: 12 }).map((n) => `GMT${n < 0 ? '-' : '+'}${Math.abs(n)}`),
        ),
        label: word,
      }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(docs(), fc.array(planning, { maxLength: 12 }), tz, (text, plannings, timeZone) => {
        const payload = timeZone ? { plannings, timeZone } : { plannings };
        const out = editPlanifications(text, payload);
        expectOnlySectionChanged(text, out, 'Planifications');
        const before = readPlanifications(parseConfig(text));
        const after = readPlanifications(parseConfig(out));
        const norm = ZPlanificationsPayload.parse(payload);
        expect(after.plannings).toEqual(norm.plannings);
        expect(after.timeZone).toBe(norm.timeZone ? norm.timeZone.label : before.timeZone);
        expect(after.timeZoneOffset).toBe(norm.timeZone ? norm.timeZone.value : before.timeZoneOffset);
      }),
      RUNS,
    );
  });

  it('editTerminal', () => {
    const arb = docs(['Terminaux']).chain((text) => {
      const d = parseConfig(text);
      const view = readTerminals(d).terminals;
      const lists = readDataLists(d);
      const techs = ['', ...lists.techniciens.map((t) => t.IDInterne)];
      const depots = ['', ...lists.depots.map((t) => t.IDInterne)];
      const sal = lists.salaries.map((s) => s.IDInterne);
      return fc.integer({ min: 0, max: view.length - 1 }).chain((index) => {
        const t = view[index]!;
        return fc
          .record({
            Nom: fc.oneof(
              fc.constant(t.Nom),
              fc.constant(TERMINAL_FREE_NAME),
              fc.constant(''),
              word,
              fc.constantFrom(...view.map((v) => v.Nom)),
            ),
            ID_Tablette: fc.oneof(fc.constant(''), word),
            ID_Smartphone: fc.oneof(fc.constant(''), word),
            technicienId: fc.constantFrom(...techs),
            depotId: fc.constantFrom(...depots),
            commerciaux: sal.length
              ? fc.shuffledSubarray(sal).map((ids) => ids.map((IDInterne) => ({ IDInterne, Libelle: '' })))
              : fc.constant<{ IDInterne: string; Libelle: string }[]>([]),
            authorizations: fc.tuple(
              ...t.authorizations.map((a) =>
                fc.constantFrom<-1 | 0 | 1>(-1, 0, 1).map((Autorise) => ({ ...a, Autorise })),
              ),
            ),
          })
          .map((terminal) => ({ text, index, terminal, view }));
      });
    });
    fc.assert(
      fc.property(arb, ({ text, index, terminal, view }) => {
        const out = editTerminal(text, index, terminal);
        expectOnlySectionChanged(text, out, 'Terminaux');
        const d = parseConfig(out);
        const got = readTerminals(d).terminals[index]!;
        const before = view[index]!;
        let nom = terminal.Nom;
        if (nom !== before.Nom) {
          const earlier = childrenNamed(parseConfig(text).section('Terminaux'), 'Terminal')
            .slice(0, index)
            .map((t) => {
              const n = childNamed(t, 'Nom');
              return n ? displayValue(xmlText(n)).trim() : '';
            });
          const key = nom.trim();
          if (key === '' || earlier.includes(key)) nom = TERMINAL_FREE_NAME;
        }
        expect(got.Nom).toBe(nom);
        expect([got.ID_Tablette, got.ID_Smartphone, got.technicienId, got.depotId]).toEqual([
          terminal.ID_Tablette,
          terminal.ID_Smartphone,
          terminal.technicienId,
          terminal.depotId,
        ]);
        expect(got.commerciaux.map((c) => c.IDInterne).sort()).toEqual(
          terminal.commerciaux.map((c) => c.IDInterne).sort(),
        );
        expect(got.authorizations).toEqual(terminal.authorizations);
        // other terminals keep their bytes
        const slices = (t: string) => {
          const doc = parseConfig(t);
          return childrenNamed(doc.section('Terminaux'), 'Terminal').map((e) => t.slice(e.start, e.end));
        };
        const a = slices(text);
        const b = slices(out);
        expect(b.filter((_, i) => i !== index)).toEqual(a.filter((_, i) => i !== index));
        // Autorisation_Longue in step with the Autorise values it was rewritten for
        if (
          b[index] !== a[index] &&
          terminal.authorizations.some((x, i) => x.Autorise !== before.authorizations[i]!.Autorise)
        ) {
          const longue = /<Autorisation_Longue>([^<]*)</.exec(b[index]!)![1]!.split('|');
          for (const x of got.authorizations)
            expect(longue[Number(x.ID) - 1] ?? '0').toBe(String(x.Autorise));
        }
      }),
      { numRuns: 80 },
    );
  });
});

describe('property: invalid payloads change nothing and raise ConfigXmlError', () => {
  it('random junk payloads', () => {
    const edits = [
      editSources,
      editExternalLinks,
      editExternalCalendars,
      editSyncData,
      editExclusions,
      editComplement,
      editPlanifications,
    ];
    fc.assert(
      fc.property(fc.constantFrom(...edits), fc.anything(), (edit, junk) => {
        try {
          const out = (edit as (t: string, p: unknown) => string)(FIXTURE, junk);
          parseConfig(out);
        } catch (e) {
          expect(e).toBeInstanceOf(ConfigXmlError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('section order list matches the fixture', () => {
    expect(SECTION_ORDER).toEqual(SECTIONS.map((s) => s.name));
  });
});
