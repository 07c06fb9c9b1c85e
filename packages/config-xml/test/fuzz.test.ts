import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { ZConfigDiagnostic } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import * as engine from '../src/index.ts';

const { ConfigXmlError, diagnoseConfig, parseConfig, repairConfig } = engine;
type ConfigXmlError = engine.ConfigXmlError;
type ConfigDocument = engine.ConfigDocument;

/** Every view the console reads, as exported by the package. */
const READERS: readonly ((doc: ConfigDocument) => unknown)[] = [
  engine.readInfo,
  engine.readLastSync,
  engine.readSources,
  engine.readExternalLinks,
  engine.readExternalCalendars,
  engine.readDataLists,
  engine.readGlobalAuthorizations,
  engine.readSyncData,
  engine.readExclusions,
  engine.readComplement,
  engine.readPlanifications,
  engine.countPlannings,
  engine.readTerminals,
  engine.redactConfig,
];

/**
 * Edit the Sources (change a server, add one source) and the first terminal (flip an
 * authorisation) of a readable document: what the editors write must be valid and readable
 * again, and the editors may only fail with ConfigXmlError.
 */
function editAndReread(text: string): void {
  const doc = parseConfig(text);
  const sources = engine.readSources(doc).sources.map((source) => ({
    Provider: source.Provider,
    Serveur: `${source.Serveur}-fuzz`,
    Nom_BDD: source.Nom_BDD,
    Lecture_Seule: source.Lecture_Seule,
    Utilisateur: source.Utilisateur,
    MDP: source.MDP,
  }));
  sources.push({
    Provider: 'SQLOLEDB',
    Serveur: 'srv',
    Nom_BDD: 'Base é',
    Lecture_Seule: true,
    Utilisateur: 'sa',
    MDP: '',
  });
  const outputs = [guarded(() => engine.editSources(text, { sources }))];
  const first = guarded(() => engine.readTerminals(doc).terminals[0]);
  if (first !== undefined && !(first instanceof ConfigXmlError)) {
    const terminal = {
      Nom: first.Nom,
      ID_Tablette: first.ID_Tablette,
      ID_Smartphone: first.ID_Smartphone,
      technicienId: first.technicienId,
      depotId: first.depotId,
      commerciaux: first.commerciaux.map((c) => ({ IDInterne: c.IDInterne, Libelle: c.Libelle })),
      authorizations: first.authorizations.map((a, i) => ({
        ID: a.ID,
        Autorise: i === 0 ? (a.Autorise === 1 ? 0 : 1) : a.Autorise,
        Libelle: a.Libelle,
      })),
    };
    outputs.push(guarded(() => engine.editTerminal(text, first.xmlIndex, terminal)));
  }
  for (const edited of outputs) {
    if (edited instanceof ConfigXmlError) continue;
    expect(diagnoseConfig(edited).isValid).toBe(true);
    readEverything(edited);
  }
}

/** Parse, then read every view: only ConfigXmlError may come out. Says whether it parsed. */
function readEverything(text: string): boolean {
  const doc = guarded(() => parseConfig(text));
  if (doc instanceof ConfigXmlError) return false;
  for (const read of READERS) guarded(() => read(doc));
  return true;
}

const fixture = readFileSync(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url), 'utf8');
/** Time allowed to one engine call on a fixture-sized document; far above the normal ~50 ms. */
const CALL_BUDGET_MS = 2_000;
/** Fixed in CI; FUZZ_SEED and FUZZ_RUNS allow longer exploratory runs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** Offsets of every tag of the fixture, to remove or duplicate whole tags. */
const tags = [...fixture.matchAll(/<\/?[A-Za-z_][^<>]*>/g)].map(
  (m) => [m.index, m.index + m[0].length] as const,
);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

type TMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; code: number }
  | { kind: 'flip-byte'; at: number; byte: number }
  | { kind: 'remove-tag'; tag: number }
  | { kind: 'duplicate-tag'; tag: number }
  | { kind: 'ampersand'; at: number };

const mutation: fc.Arbitrary<TMutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(fixture.length) }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(fixture.length - 1),
    code: fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xffff })),
  }),
  fc.record({ kind: fc.constant('flip-byte' as const), at: fc.nat(fixture.length - 1), byte: fc.nat(255) }),
  fc.record({ kind: fc.constant('remove-tag' as const), tag: fc.nat(tags.length - 1) }),
  fc.record({ kind: fc.constant('duplicate-tag' as const), tag: fc.nat(tags.length - 1) }),
  fc.record({ kind: fc.constant('ampersand' as const), at: fc.nat(fixture.length) }),
);

function mutate(text: string, m: TMutation): string {
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, Math.min(m.at, text.length));
    case 'flip': {
      const at = Math.min(m.at, text.length - 1);
      return text.slice(0, at) + String.fromCharCode(m.code) + text.slice(at + 1);
    }
    case 'flip-byte': {
      // A byte of the UTF-8 file changed, then the file read as UTF-8 again (U+FFFD where invalid).
      const bytes = encoder.encode(text);
      bytes[Math.min(m.at, bytes.length - 1)] = m.byte;
      return decoder.decode(bytes);
    }
    case 'ampersand': {
      const at = Math.min(m.at, text.length);
      return `${text.slice(0, at)}&${text.slice(at)}`;
    }
    default: {
      const [start, end] = tags[m.tag] ?? [0, 0];
      if (end > text.length) return text;
      const tag = text.slice(start, end);
      return text.slice(0, start) + (m.kind === 'duplicate-tag' ? tag + tag : '') + text.slice(end);
    }
  }
}

/** Apply mutations from the last offset to the first, so tag offsets stay meaningful. */
function applyAll(mutations: TMutation[]): string {
  const offset = (m: TMutation): number => ('at' in m ? m.at : (tags[m.tag]?.[0] ?? 0));
  return [...mutations].sort((a, b) => offset(b) - offset(a)).reduce(mutate, fixture);
}

/** Run an engine call: it may only fail with ConfigXmlError, and within the time budget. */
function guarded<T>(call: () => T): T | ConfigXmlError {
  const started = performance.now();
  let outcome: T | ConfigXmlError;
  try {
    outcome = call();
  } catch (error) {
    if (!(error instanceof ConfigXmlError)) throw error;
    expect(error.message).not.toBe('');
    outcome = error;
  }
  expect(performance.now() - started).toBeLessThan(CALL_BUDGET_MS);
  return outcome;
}

describe('hostile input', () => {
  it('stays linear on deep nesting, stray end tags and unterminated markup', () => {
    const hostile = [
      `<Connexion>${'<a>'.repeat(100_000)}${'</b>'.repeat(100_000)}</Connexion>`,
      `<Connexion>${'<a>x\n'.repeat(60_000)}`,
      `<Connexion>${'<!--'.repeat(60_000)}`,
      `<Connexion>${'<a '.repeat(60_000)}`,
      `<Connexion>${'&'.repeat(150_000)}</Connexion>`,
      `<Connexion>${'Ã'.repeat(150_000)}</Connexion>`,
      `<!DOCTYPE x [${'<!ENTITY a "&a;">'.repeat(10_000)}]><Connexion>&a;</Connexion>`,
    ];
    for (const text of hostile) {
      const diagnostic = guarded(() => diagnoseConfig(text));
      expect(diagnostic).toHaveProperty('isValid');
      guarded(() => repairConfig(text));
      readEverything(text);
    }
  });
});

describe('fuzz: mutated fixtures', () => {
  it('diagnose, repair, parse and readers never throw anything but ConfigXmlError and never hang', () => {
    let written = 0;
    const disagreements: string[] = [];
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const text = applyAll(mutations);
        const diagnostic = ZConfigDiagnostic.parse(guarded(() => diagnoseConfig(text)));
        // What the diagnostic calls valid, the engine reads, and the other way round.
        const readable = readEverything(text);
        if (readable !== diagnostic.isValid) disagreements.push(diagnostic.parseError ?? 'valid');
        const repaired = guarded(() => repairConfig(text));
        if (repaired instanceof ConfigXmlError) return;
        written += 1;
        // What repair writes, the engine reads back, and repairing again changes nothing.
        expect(diagnoseConfig(repaired.text).isValid).toBe(true);
        expect(() => parseConfig(repaired.text)).not.toThrow();
        readEverything(repaired.text);
        editAndReread(repaired.text);
        expect(repairConfig(repaired.text).changes).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Enough mutated documents get repaired for the write-then-read checks to mean something.
    console.info(`fuzz: ${written}/${RUNS} mutated documents repaired, then edited and read back`);
    expect(disagreements).toEqual([]);
    expect(written).toBeGreaterThan(RUNS * 0.15);
  });

  it('repairs most single-fault mutations of the kinds it knows', () => {
    let repairedCount = 0;
    const runs = 100;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ kind: fc.constant('ampersand' as const), at: fc.nat(fixture.length) }),
          fc.record({
            kind: fc.constant('flip' as const),
            at: fc.nat(fixture.length - 1),
            code: fc.integer({ min: 0, max: 8 }),
          }),
        ),
        (m) => {
          const result = guarded(() => repairConfig(mutate(fixture, m)));
          if (!(result instanceof ConfigXmlError)) repairedCount += 1;
        },
      ),
      { seed: SEED, numRuns: runs },
    );
    // A '&' or a control character dropped inside a tag name is not always repairable; in text it is.
    expect(repairedCount).toBeGreaterThan(runs / 2);
  });
});
