import { decodeConnectorText, decodeRecordText, recordAttachments } from '@synchro/config-xml';
import {
  parseConnectorRequest,
  ZConnectorConfigPatch,
  ZImportRecordsRequest,
  ZImportResult,
  ZTransactionsRequest,
} from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import type { TImportRecord } from '../src/api-types.ts';
import { connectorStamp } from '../src/connector-time.ts';
import type { GeneratorContext } from '../src/generators/context.ts';
import { DEVIS_HEADER_FIELDS, DEVIS_LINE_FIELDS } from '../src/generators/devis-fields.ts';
import { IdFactory, runTag } from '../src/generators/ids.ts';
import { importResult } from '../src/generators/import-results.ts';
import {
  DURATION_ALERT_SECONDS,
  lastSyncFigures,
  lastSyncPatch,
  SIZE_ALERT_MO,
} from '../src/generators/last-sync.ts';
import { generateImportRecords } from '../src/generators/records.ts';
import { sourceStatuses } from '../src/generators/sources.ts';
import { generateTransactions } from '../src/generators/transactions.ts';
import { readInstallation, type Installation } from '../src/installation.ts';
import { Random } from '../src/random.ts';
import { childOf, childText, parseXml, type XmlElement } from '../src/xml-tree.ts';
import { FIXTURE_CONFIG, FIXTURE_DEVICE_IDS, queuedRecord } from './helpers.ts';

const NOW = Date.parse('2025-11-14T08:09:52.542Z');
const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const installation: Installation = readInstallation(FIXTURE_CONFIG);

function context(seed: number, overrides: Partial<GeneratorContext> = {}): GeneratorContext {
  return {
    rng: new Random(seed),
    ids: new IdFactory(runTag(NOW), 500),
    zone: installation.zone,
    nowMs: NOW,
    terminals: installation.terminals,
    ...overrides,
  };
}

/** Every character stands for one byte: the text is in the connector's convention. */
function isConnectorText(s: string): boolean {
  return [...s].every((c) => (c.codePointAt(0) ?? 0) <= 0xff);
}

function enregOf(r: TImportRecord): XmlElement {
  return parseXml(decodeRecordText(r.Enreg));
}

/** The contract's verdict on a body: the French message of the 400 it would get, or 'valide'. */
function contractCheck(schema: Parameters<typeof parseConnectorRequest>[0], body: unknown): string {
  const r = parseConnectorRequest(schema, body);
  return r.ok ? 'valide' : r.message;
}

describe('readInstallation (the fixture configuration)', () => {
  it('finds the zone, the declared terminals, the sources with a provider and Info', () => {
    expect(installation.zone).toBe('Europe/Paris');
    expect(installation.terminals.map((t) => t.name)).toEqual([
      'pixel 8',
      'Windev Windows',
      'Tablette atelier',
      'ipad',
      'iPhone 15',
      'Zebra',
      'Tab S8',
      'Simul Mac',
    ]);
    expect(new Set(installation.terminals.flatMap((t) => t.deviceIds))).toEqual(FIXTURE_DEVICE_IDS);
    expect(installation.terminals[0]?.technicianId).toBe('CO00006');
    expect(installation.sources).toEqual([{ index: 1, provider: 'SQLOLEDB', server: 'localhost\\ebp' }]);
    expect(installation.serial).toBe('DEMO-EB15-AB22-A1BA-5B66');
  });

  it('takes Europe/Paris when the configuration names no valid zone', () => {
    const other = FIXTURE_CONFIG.replace(
      '<FuseauHoraire>Europe/Paris</FuseauHoraire>',
      '<FuseauHoraire>Mars/Olympus</FuseauHoraire>',
    );
    expect(readInstallation(other).zone).toBe('Europe/Paris');
    const ny = FIXTURE_CONFIG.replace(
      '<FuseauHoraire>Europe/Paris</FuseauHoraire>',
      '<FuseauHoraire>America/New_York</FuseauHoraire>',
    );
    expect(readInstallation(ny).zone).toBe('America/New_York');
  });
});

describe('generateImportRecords', () => {
  const records = generateImportRecords(context(42), { count: 300 });

  it('is deterministic for a seed', () => {
    expect(generateImportRecords(context(42), { count: 300 })).toEqual(records);
    expect(generateImportRecords(context(43), { count: 300 })).not.toEqual(records);
  });

  it('writes records as the contract wants them, with unique IDInterne values', () => {
    expect(contractCheck(ZImportRecordsRequest, { records })).toBe('valide');
    expect(records).toHaveLength(300);
    expect(new Set(records.map((r) => r.IDInterne)).size).toBe(300);
    for (const r of records) {
      expect(r.IDInterne).toMatch(/^NUXI(DEV|INT|TIE|GED)A[0-9a-f]{16}$/);
      expect(r.DateHeure).toMatch(ISO_LOCAL);
      expect(r.DateHeure < '2025-11-14T09:09:52').toBe(true); // before the sync, Paris wall clock
      expect([0, 1, -1]).toContain(r.Etat);
      expect(Number.isInteger(r.NumLigne) && r.NumLigne >= 1).toBe(true);
      expect(r.RefDoc).not.toBe('');
      for (const text of [r.Enreg, r.Log ?? '', r.TypeElement, r.Fichier?.Nom ?? ''])
        expect(isConnectorText(text)).toBe(true);
      if (r.Etat === -1) expect((r.Log ?? '').split('\r\n').length).toBeGreaterThanOrEqual(3);
    }
  });

  it('mixes quotes, interventions, customers and GED documents, most imported, some rejected or pending', () => {
    const types = new Set(records.map((r) => r.TypeEnreg));
    expect(types).toEqual(new Set(['DocumentDEVIS', 'Intervention', 'TiersCP', 'GED']));
    const etats = records.map((r) => r.Etat);
    expect(etats.filter((e) => e === 1).length).toBeGreaterThan(200);
    expect(etats.filter((e) => e === -1).length).toBeGreaterThan(10);
    expect(etats.filter((e) => e === 0).length).toBeGreaterThan(5);
    expect(records.some((r) => r.TypeElement === 'CrÃ©ation')).toBe(true);
  });

  it('writes each Enreg as a SyncNuxiDev record from a declared terminal', () => {
    const tables: Record<string, string> = {
      DocumentDEVIS: 'documentdevis',
      Intervention: 'intervention',
      TiersCP: 'tiers',
      GED: 'ged',
    };
    for (const r of records) {
      const root = enregOf(r);
      expect(root.name).toBe('SyncNuxiDev');
      expect(childText(root, 'DateHeureExport')).toMatch(/^\d{17}$/);
      expect(FIXTURE_DEVICE_IDS.has(childText(root, 'Device') ?? '')).toBe(true);
      expect(childText(root, 'Table')).toBe(tables[r.TypeEnreg]);
      expect(childOf(root, 'Enregistrement')).toBeDefined();
      expect(r.Enreg).toContain('\r\n  <Enregistrement>\r\n');
    }
  });

  it('builds quotes on the fixture record: its fields in its order, coherent lines and totals', () => {
    const quotes = records.filter((r) => r.TypeEnreg === 'DocumentDEVIS');
    expect(quotes.length).toBeGreaterThan(50);
    for (const q of quotes) {
      const enr = childOf(enregOf(q), 'Enregistrement') as XmlElement;
      expect(enr.children.map((c) => c.name)).toEqual([...DEVIS_HEADER_FIELDS.map(([n]) => n), 'Lignes']);
      const lines = childOf(enr, 'Lignes')?.children ?? [];
      expect(lines).toHaveLength(q.NumLigne);
      for (const l of lines) expect(l.children.map((c) => c.name)).toEqual(DEVIS_LINE_FIELDS.map(([n]) => n));
      expect(childText(enr, 'Code')).toBe(q.RefDoc);
      const sumHT = lines.reduce((s, l) => s + Number(childText(l, 'Ligne_MontantNetHT')), 0);
      expect(Number(childText(enr, 'MontantNetHT'))).toBeCloseTo(sumHT, 1);
    }
    expect(quotes.some((q) => decodeConnectorText(q.Enreg).includes('Chaudière à condensation'))).toBe(true);
  });

  it('attaches real PDF or PNG files to GED records, in the record XML and/or as Fichier', () => {
    const ged = records.filter((r) => r.TypeEnreg === 'GED');
    expect(ged.length).toBeGreaterThan(20);
    let inXml = 0;
    let asFichier = 0;
    for (const g of ged) {
      const enr = childOf(enregOf(g), 'Enregistrement');
      const name = childText(enr, 'NomDocument') ?? '';
      const xmlContent = childText(enr, 'BinaireDocument') ?? '';
      const contents = [xmlContent, g.Fichier?.Contenu ?? ''].filter((c) => c !== '');
      expect(contents.length).toBeGreaterThan(0);
      if (xmlContent !== '') inXml++;
      if (g.Fichier) {
        asFichier++;
        expect(decodeConnectorText(g.Fichier.Nom)).toBe(name);
      }
      for (const c of contents) {
        const bytes = Buffer.from(c, 'base64');
        expect(bytes.toString('base64')).toBe(c);
        expect(Number(childText(enr, 'Taille'))).toBe(bytes.length);
        if (name.endsWith('.pdf')) expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
        else expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
      }
      // The console's own reader finds the document in the record.
      const [attachment] = recordAttachments(g.Enreg);
      expect(attachment?.name).toBe(name);
      expect(attachment?.size).toBe(xmlContent === '' ? 0 : Buffer.from(xmlContent, 'base64').length);
    }
    expect(inXml).toBeGreaterThan(0);
    expect(asFichier).toBeGreaterThan(0);
    expect(
      ged.some(
        (g) =>
          g.Fichier && (childText(childOf(enregOf(g), 'Enregistrement'), 'BinaireDocument') ?? '') === '',
      ),
    ).toBe(true);
  });

  it('rejects every record of a failed sync, with the reason', () => {
    const failed = generateImportRecords(context(1), { count: 20, failed: true });
    expect(
      failed.every(
        (r) =>
          r.Etat === -1 &&
          decodeConnectorText(r.Log ?? '').includes('Connexion à la base de données impossible'),
      ),
    ).toBe(true);
  });

  it('still produces records when no terminal is declared (from the fixture record device)', () => {
    const orphan = generateImportRecords(context(2, { terminals: [] }), { count: 5 });
    expect(orphan.every((r) => childText(enregOf(r), 'Device') === '8667183f619bbe98')).toBe(true);
  });
});

describe('generateTransactions', () => {
  it('traces exchanges with the declared terminals only, some in error, with logs of several lines', () => {
    const tx = generateTransactions(context(5), { count: 400, durationSeconds: 251 });
    expect(contractCheck(ZTransactionsRequest, { transactions: tx })).toBe('valide');
    expect(generateTransactions(context(5), { count: 400, durationSeconds: 251 })).toEqual(tx);
    expect(tx).toHaveLength(400);
    expect(new Set(tx.map((t) => t.ID)).size).toBe(400);
    const names = new Map(installation.terminals.flatMap((t) => t.deviceIds.map((id) => [id, t.name])));
    for (const t of tx) {
      expect(names.get(t.IDTablette)).toBe(decodeConnectorText(t.LibelleTablette));
      expect(t.DateHeureTrt).toMatch(ISO_LOCAL);
      expect(t.DateHeureTrt >= '2025-11-14T09:05:41' && t.DateHeureTrt <= '2025-11-14T09:09:52').toBe(true);
      expect(t.Log.split('\r\n').length).toBeGreaterThanOrEqual(3);
      expect(isConnectorText(t.Log)).toBe(true);
      expect([0, 1]).toContain(t.Err);
    }
    const errors = tx.filter((t) => t.Err === 1).length;
    expect(errors).toBeGreaterThan(10);
    expect(errors).toBeLessThan(100);
    const numbers = tx.map((t) => Number(t.NumTransaction));
    expect(numbers).toEqual(numbers.map((_, i) => 500 + i));
  });

  it('traces each new record through the terminal that sent it', () => {
    const ctx = context(6);
    const records = generateImportRecords(ctx, { count: 10 });
    const tx = generateTransactions(ctx, { durationSeconds: 60, records });
    expect(tx.length).toBeGreaterThanOrEqual(10 + installation.terminals.length);
    records.forEach((r, i) => {
      expect(tx[i]?.RefDoc).toBe(r.RefDoc);
      expect(tx[i]?.IDTablette).toBe(childText(enregOf(r), 'Device'));
    });
  });

  it('fails most exchanges of a failed sync and traces nothing without declared terminals', () => {
    const failed = generateTransactions(context(7), { count: 100, failed: true, durationSeconds: 700 });
    expect(failed.filter((t) => t.Err === 1).length).toBeGreaterThan(60);
    expect(generateTransactions(context(7, { terminals: [] }), { count: 10, durationSeconds: 10 })).toEqual(
      [],
    );
  });
});

describe('lastSyncPatch', () => {
  it("writes DerSynchro in the installation's wall clock and the connector's text convention", () => {
    const figures = { durationSeconds: 251, records: 1838, sizeMo: 3.721 };
    expect(lastSyncPatch('C', figures, NOW, 'Europe/Paris')).toEqual({
      DateHeure: '20251114090952542',
      TypeDeSync: 'ComplÃ¨te',
      Duree: '00:04:11',
      DureeAlerte: '0',
      NbEnreg: '1838',
      Vitesse: '7323',
      Taille: '3,721 Mo',
      TailleAlerte: '0',
    });
    expect(lastSyncPatch('R', figures, NOW, 'America/New_York')).toMatchObject({
      DateHeure: '20251114030952542',
      TypeDeSync: 'IncrÃ©mentale',
    });
    expect(lastSyncPatch('I', figures, NOW, 'Europe/Paris').TypeDeSync).toBe('Import des saisies');
    const patch = {
      DerSynchro: lastSyncPatch('C', figures, NOW, 'Europe/Paris'),
      Sources: sourceStatuses(new Random(1), installation.sources),
    };
    expect(contractCheck(ZConnectorConfigPatch, patch)).toBe('valide');
    expect(connectorStamp(Date.parse('2025-07-01T10:00:00.007Z'), 'Europe/Paris')).toBe('20250701120000007');
  });

  it('raises the alert flags from the figures, now and then', () => {
    const patches = Array.from({ length: 300 }, (_, seed) =>
      lastSyncPatch('C', lastSyncFigures(new Random(seed), { type: 'C' }), NOW, 'Europe/Paris'),
    );
    for (const p of patches) {
      const [h, m, s] = p.Duree.split(':').map(Number) as [number, number, number];
      expect(p.DureeAlerte).toBe(h * 3600 + m * 60 + s > DURATION_ALERT_SECONDS ? '1' : '0');
      expect(p.Taille).toMatch(/^\d+,\d{3} Mo$/);
      expect(p.TailleAlerte).toBe(
        Number(p.Taille.replace(' Mo', '').replace(',', '.')) > SIZE_ALERT_MO ? '1' : '0',
      );
    }
    const slow = patches.filter((p) => p.DureeAlerte === '1').length;
    const heavy = patches.filter((p) => p.TailleAlerte === '1').length;
    expect(slow).toBeGreaterThan(10);
    expect(slow).toBeLessThan(90);
    expect(heavy).toBeGreaterThan(5);
    expect(heavy).toBeLessThan(90);
  });

  it('counts at least the records the sync sent, and marks a failed sync slow', () => {
    expect(lastSyncFigures(new Random(1), { type: 'I', minRecords: 700 }).records).toBeGreaterThanOrEqual(
      700,
    );
    const failed = lastSyncPatch(
      'C',
      lastSyncFigures(new Random(1), { type: 'C', failed: true }),
      NOW,
      'Europe/Paris',
    );
    expect(failed.DureeAlerte).toBe('1');
  });
});

describe('sourceStatuses', () => {
  const sources = [
    { index: 1, provider: 'SQLOLEDB', server: 'localhost\\ebp' },
    { index: 3, provider: 'WinDevHF7', server: '' },
  ];

  it('reports the sources with a provider as connected', () => {
    expect(sourceStatuses(new Random(1), sources, { failureRate: 0 })).toEqual([
      { index: 1, Status: '1', StatusLibelle: ' Ok : SQL' },
      { index: 3, Status: '1', StatusLibelle: ' Ok : HFSQL' },
    ]);
  });

  it('fails the first source of a failed sync, with a reason in the connector convention', () => {
    const [first, second] = sourceStatuses(new Random(1), sources, { failed: true });
    expect(first?.Status).toBe('0');
    expect(decodeConnectorText(first?.StatusLibelle ?? '')).toMatch(/^ Erreur : /);
    expect(second?.Status).toBe('1');
  });

  it('fails one source now and then', () => {
    const failures = Array.from({ length: 200 }, (_, seed) =>
      sourceStatuses(new Random(seed), sources),
    ).filter((s) => s.some((x) => x.Status === '0')).length;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(50);
  });
});

describe('IdFactory', () => {
  it('never gives the same id twice, within a run or across runs', () => {
    const a = new IdFactory(runTag(NOW));
    const b = new IdFactory(runTag(NOW + 1));
    const all = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      all.add(a.importId('DEV'));
      all.add(b.importId('DEV'));
    }
    expect(all.size).toBe(40_000);
  });
});

describe('importResult', () => {
  const queued = queuedRecord();

  it('imports most records, rejects some with a log, and sometimes produces the PDF of a quote', () => {
    const results = Array.from({ length: 200 }, (_, seed) => importResult(new Random(seed), queued));
    for (const r of results) expect(contractCheck(ZImportResult, r)).toBe('valide');
    const rejected = results.filter((r) => r.Etat === -1);
    expect(rejected.length).toBeGreaterThan(10);
    expect(rejected.length).toBeLessThan(60);
    for (const r of rejected)
      expect(decodeConnectorText(r.Log ?? '')).toMatch(/\r\nErreur : .+\r\nImport annulé\.$/);
    const withFile = results.filter((r) => r.Fichier);
    expect(withFile.length).toBeGreaterThan(20);
    for (const r of withFile) {
      expect(r.Etat).toBe(1);
      expect(r.Fichier?.Nom).toBe('DEVIS-XX_13708041526.pdf');
      expect(
        Buffer.from(r.Fichier?.Contenu ?? '', 'base64')
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
  });

  it('rejects every record when the sync failed', () => {
    expect(importResult(new Random(3), queued, { failed: true })).toMatchObject({ Etat: -1 });
  });
});
