/**
 * Import record benchmark: npx tsx bench/config-xml/records.ts [--runs N]
 * Builds (in memory) a 30 MB GED record from the real quote: the quote's fields with accented
 * text in the connector convention, and one attached document of ~22 MB (30 MB of base64). Times
 * the safe check, the decoding for display, the encoding back, the attachment list and the
 * connector API's validation of the same record in an import batch. Writes the table to
 * bench/README.md under "## config-xml: import records".
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as engine from '@synchro/config-xml';
import { ZImportRecordsRequest, parseConnectorRequest } from '@synchro/contracts';
import { describeMachine } from './machine.ts';
import { formatMs, time } from './measure.ts';
import { writeSection } from './readme.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);

/** The real quote made a GED record carrying one document of `base64Chars` characters of base64. */
function gedRecord(base64Chars: number): string {
  const quote = readFileSync(join(root, 'packages/config-xml/test/fixtures/enreg-devis.xml'), 'utf8');
  const content = Buffer.alloc(Math.floor((base64Chars * 3) / 4), 0x5a).toString('base64');
  const accented = engine.encodeConnectorText('Bague en or gravée « Été » – 5 €');
  return quote
    .replace('<Table>documentdevis</Table>', '<Table>ged</Table>')
    .replace(/<Ligne_Designation>[^<]*</g, `<Ligne_Designation>${accented}<`)
    .replace(
      '<Lignes>',
      `<NomDocument>${engine.encodeConnectorText('Devis signé.pdf')}</NomDocument>\r\n` +
        `    <BinaireDocument>${content}</BinaireDocument>\r\n    <Lignes>`,
    );
}

function main(): void {
  const stored = gedRecord(30 * 1024 * 1024);
  const shown = engine.decodeRecordText(stored);
  if (engine.encodeRecordText(shown) !== stored) throw new Error('The record does not round-trip');
  const [attachment] = engine.recordAttachments(stored);
  const batch = {
    records: [
      {
        IDInterne: 'NUXIGED1',
        TypeEnreg: 'GED',
        RefDoc: 'XX_1',
        DateHeure: '2025-11-14T09:12:00',
        NumLigne: 0,
        TypeElement: 'CrÃ©ation',
        Etat: 0,
        Enreg: stored,
      },
    ],
  };
  const rows: [string, () => unknown][] = [
    ['parseRecord (safe check, element index)', () => engine.parseRecord(stored)],
    ['decodeRecordText (stored → shown)', () => engine.decodeRecordText(stored)],
    ['encodeRecordText (shown → stored)', () => engine.encodeRecordText(shown)],
    ['recordAttachments (check included)', () => engine.recordAttachments(stored)],
    [
      'ZImportRecordsRequest: one record of this size',
      () => parseConnectorRequest(ZImportRecordsRequest, batch),
    ],
  ];
  const lines = ['| operation | median ms |', '|---|---:|'];
  for (const [label, task] of rows) {
    const ms = time(runs, task).medianMs;
    process.stderr.write(`${label}: ${formatMs(ms)} ms\n`);
    lines.push(`| ${label} | ${formatMs(ms)} |`);
  }
  const mb = (Buffer.byteLength(stored, 'utf8') / 1024 / 1024).toFixed(1);
  const section = [
    '## config-xml: import records',
    '',
    'Run `npx tsx bench/config-xml/records.ts` (the record is built in memory).',
    `Machine: ${describeMachine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `Record: the real quote made a GED record, ${mb} MiB, one attached document ` +
      `(${attachment?.name ?? '?'}, ${((attachment?.size ?? 0) / 1024 / 1024).toFixed(1)} MiB decoded), ` +
      `accented text in the connector convention. Medians of ${runs} runs after a warm-up.`,
    '',
    ...lines,
    '',
    '- Goal: check, decode and encode of a 30 MB record well under a second each.',
    '',
  ].join('\n');
  console.log(section);
  writeSection(join(root, 'bench/README.md'), section, '## config-xml: import records');
}

main();
