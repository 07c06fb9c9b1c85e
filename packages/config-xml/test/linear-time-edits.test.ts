import { PerformanceObserver } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  editExclusions,
  editExternalCalendars,
  editPlanifications,
  editTerminal,
  parseConfig,
  type ConfigDocument,
} from '../src/index.ts';

/**
 * « Linear time, always » for the section edits: an edit's time grows with the size of the stored
 * section and of the payload, never with their product. Each case is timed at two sizes (n and 8n
 * or 16n, best of several tries, beside a plain pass over the same characters, as in
 * linear-time.test.ts, and outside the garbage collector's pauses: see `pauses`). The edits used
 * to scan a parent's children once per child they removed or inserted (replacing 100 000 stored
 * families with 100 000 others took 21.8 s): their time per character grew 5 to 40 times here.
 */

const NL = '\r\n';

/** A configuration of the given root children, written as the connector writes them (CRLF, two-space indent). */
function config(...sections: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>${NL}<Connexion>${NL}  ${sections.join(NL + '  ')}${NL}</Connexion>${NL}`;
}

/** `count` children of an element written on their own lines at `indent`. */
function lines(count: number, indent: string, child: (i: number) => string): string {
  let out = '';
  for (let i = 0; i < count; i++) out += NL + indent + child(i);
  return out;
}

const valeur = (id: string) =>
  `<Valeur>${NL}          <Code>${id}</Code>${NL}          <IDInterne>${id}</IDInterne>${NL}          <Libelle>L ${id}</Libelle>${NL}        </Valeur>`;

/** Exclusions holding `n` article families `${prefix}i|`. */
function withFamilies(n: number, prefix: string): string {
  return config(
    `<Exclusions>${NL}    <Exclusion>${NL}      <Type>ItemFamily</Type>${NL}      <Valeurs>` +
      lines(n, '        ', (i) => valeur(`${prefix}${i}|`)) +
      `${NL}      </Valeurs>${NL}    </Exclusion>${NL}  </Exclusions>`,
  );
}

const families = (n: number, prefix: string) => ({
  exclusions: Array.from({ length: n }, (_, i) => ({
    type: 'ItemFamily' as const,
    id: `${prefix}${i}|`,
    libelle: `L ${i}`,
  })),
});

/** A terminal with `stored` commerciaux of its own, and the Data list of `salaries` employees. */
function withTerminal(stored: number, salaries: number): string {
  return config(
    '<Data>' +
      `${NL}    <CMB_SALARIES>` +
      lines(
        salaries,
        '      ',
        (i) => `<SALARIES><IDInterne>S${i}</IDInterne><Nom>Nom ${i}</Nom></SALARIES>`,
      ) +
      `${NL}    </CMB_SALARIES>${NL}  </Data>`,
    `<Terminaux>${NL}    <Terminal>${NL}      <Nom>T</Nom>${NL}      <Filtres>${NL}        <Commerciaux>` +
      lines(
        stored,
        '          ',
        (i) => `<Commercial><IDInterne>X${i}</IDInterne><Code>X${i}</Code></Commercial>`,
      ) +
      `${NL}        </Commerciaux>${NL}      </Filtres>${NL}    </Terminal>${NL}  </Terminaux>`,
  );
}

const terminal = (commerciaux: number) => ({
  Nom: 'T',
  ID_Tablette: '',
  ID_Smartphone: '',
  technicienId: '',
  depotId: '',
  commerciaux: Array.from({ length: commerciaux }, (_, i) => ({ IDInterne: `S${i}`, Libelle: '' })),
  authorizations: [],
});

interface EditCase {
  /** The stored document and the payload for size n. */
  build: (n: number) => { text: string; payload: unknown };
  edit: (doc: ConfigDocument, payload: never) => string;
  /** Timed at n and factor × n (2 000 and 8 unless said). */
  n?: number;
  factor?: number;
}

/**
 * The edits, each on a stored section and a payload both growing with n. Adding families scanned
 * the children before each new one, a scan so fast per child that it shows beside the rest of the
 * work only from tens of thousands of families (growth 2.3 to 2.6 from 2 000 to 16 000; 5.4 from
 * 4 000 to 64 000; replacing, 17 from 2 000 to 32 000): those cases go to 16n. Not timed here:
 * additions the schema bounds to a few (500 plannings, 2 000 data, 1 000 authorisations, 16
 * sources or links), which scanned the stored siblings once per addition, too few times to show.
 */
const CASES: Record<string, EditCase> = {
  'exclusions: adding n families': {
    build: (n) => ({ text: withFamilies(0, 'F'), payload: families(n, 'F') }),
    edit: editExclusions,
    n: 4_000,
    factor: 16,
  },
  'exclusions: replacing n stored families with n others': {
    build: (n) => ({ text: withFamilies(n, 'F'), payload: families(n, 'G') }),
    edit: editExclusions,
    factor: 16,
  },
  'exclusions: removing n stored families': {
    build: (n) => ({ text: withFamilies(n, 'F'), payload: { exclusions: [] } }),
    edit: editExclusions,
  },
  'plannings: removing n stored ones': {
    build: (n) => ({
      text: config(
        '<Planifications>' +
          lines(n, '    ', () => `<Planning><Jour>1</Jour><Heure>10:00</Heure><Ordre>C</Ordre></Planning>`) +
          `${NL}  </Planifications>`,
      ),
      payload: { plannings: [] },
    }),
    edit: editPlanifications,
  },
  'calendars: removing n stored rows': {
    build: (n) => ({
      text: config(
        `<Liaisons_Externes>${NL}    <Agenda>${NL}      <Type_Agenda>Google</Type_Agenda>${NL}      <Correspondances>` +
          lines(
            n,
            '        ',
            (i) => `<Correspondance><ID_Salarie>${i}</ID_Salarie><ID_Agenda>-1</ID_Agenda></Correspondance>`,
          ) +
          `${NL}      </Correspondances>${NL}    </Agenda>${NL}  </Liaisons_Externes>`,
      ),
      payload: { agendaType: 'Google', mappings: [] },
    }),
    edit: editExternalCalendars,
  },
  'terminal: n stored commerciaux replaced by n/4 others': {
    build: (n) => ({ text: withTerminal(n, n / 4), payload: terminal(n / 4) }),
    edit: (doc, payload) => editTerminal(doc, 0, payload),
  },
};

/**
 * The collector's pauses, as the runtime reports them (after the runs: see settle). The time of an
 * edit is counted outside them: the collector's share jumps once an edit's trees outgrow the young
 * generation (removing 2 000 plannings: 0.4 µs each; 16 000: 3 µs, 85 % of it collecting; both
 * 0.5 µs outside the pauses), a step no bound on the growth from n to 8n could tell from a
 * quadratic edit, while what it collects is what the edit allocates, which the edit's own time
 * already pays for once.
 */
const pauses: { start: number; end: number }[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
});
beforeAll(() => {
  observer.observe({ entryTypes: ['gc'] });
  // The floor optimised before it is first timed (else the first small size's floor is slow).
  const warm = 'x'.repeat(1 << 20);
  for (let k = 0; k < 20; k++) plainPass(warm);
});
afterAll(() => observer.disconnect());

/** Lets the runtime deliver the pauses of the runs just made. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

/** The best of `tries` runs of `fn`, each without the collector's pauses within it. */
async function bestOf(tries: number, fn: () => unknown): Promise<number> {
  const runs: [number, number][] = [];
  for (let k = 0; k < tries; k++) {
    const start = performance.now();
    fn();
    runs.push([start, performance.now()]);
  }
  await settle();
  let best = Infinity;
  for (const [start, end] of runs) {
    let paused = 0;
    for (const p of pauses) paused += Math.max(0, Math.min(end, p.end) - Math.max(start, p.start));
    best = Math.min(best, end - start - paused);
  }
  return best;
}

/** A plain pass over the characters: the floor of any pass. */
function plainPass(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * How many times more time than a plain pass over the stored text and the payload's JSON the
 * edit takes per character at `size`. Each run edits a document parsed beforehand (the parse is
 * linear-time.test.ts's) and must change it.
 */
async function perCharacter(c: EditCase, size: number): Promise<number> {
  const { text, payload } = c.build(size);
  const chars = text + JSON.stringify(payload);
  const docs = Array.from({ length: 4 }, () => parseConfig(text));
  let k = 0;
  const edit = () => {
    const out = c.edit(docs[k++ % docs.length] as ConfigDocument, payload as never);
    if (out === text) throw new Error('the edit changed nothing');
  };
  edit(); // warm-up
  const time = await bestOf(3, edit);
  return time / Math.max(await bestOf(3, () => plainPass(chars)), 0.01);
}

describe('linear time of the section edits', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: time per character does not grow with the size`, async () => {
      // Three rounds, the best of each size: a loaded machine may slow one run; a quadratic edit
      // is slow every time.
      const n = c.n ?? 2_000;
      const atN: number[] = [];
      const atKN: number[] = [];
      for (let round = 0; round < 3; round++) {
        atN.push(await perCharacter(c, n));
        atKN.push(await perCharacter(c, n * (c.factor ?? 8)));
      }
      const growth = Math.min(...atKN) / Math.max(Math.min(...atN), 1);
      const per = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
      expect(
        growth,
        `${name} (per character at n: ${per(atN)}; at ${c.factor ?? 8}n: ${per(atKN)})`,
      ).toBeLessThan(3);
    });
  }
});
