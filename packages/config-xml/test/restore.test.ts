import { HISTORY_SECTION_KEYS, SECRET_PLACEHOLDER } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import {
  EDIT_SECTION,
  SECTION_ORDER,
  changedScopes,
  editComplement,
  editConnectorParts,
  editExclusions,
  editExternalCalendars,
  editExternalLinks,
  editPlanifications,
  editScope,
  editSources,
  editSyncData,
  editTerminal,
  parseConfig,
  readComplement,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readPlanifications,
  readSources,
  readSyncData,
  readTerminals,
  restoreScopes,
  sectionChanges,
  scopeGenerations,
  type EditKind,
} from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

const doc = parseConfig(FIXTURE);

/** An older version: each edit kind changed (secrets included) from the fixture. */
const OLD_EDITS: Record<EditKind, (text: string) => string> = {
  sources: (t) => {
    const { sources } = readSources(parseConfig(t));
    sources[0] = { ...sources[0]!, Serveur: 'ANCIEN-SRV', MDP: 'ancien-secret-1' };
    return editSources(t, { sources });
  },
  externalLinks: (t) => {
    const v = readExternalLinks(parseConfig(t));
    v.Liaisons[0] = { ...v.Liaisons[0]!, Logiciel: 'Ancien logiciel', MDP: 'ancien-secret-2' };
    return editExternalLinks(t, { ...v, Dossier_Import: 'C:\\Ancien\\Import' });
  },
  externalCalendars: (t) => {
    const v = readExternalCalendars(parseConfig(t));
    return editExternalCalendars(t, { agendaType: 'Microsoft', mappings: v.mappings.slice(0, 2) });
  },
  syncData: (t) => {
    const { syncData } = readSyncData(parseConfig(t));
    syncData[0] = { ...syncData[0]!, Complete: !syncData[0]!.Complete, Histo: 42 };
    return editSyncData(t, { syncData });
  },
  exclusions: (t) => {
    const { exclusions } = readExclusions(parseConfig(t));
    return editExclusions(t, { exclusions: exclusions.slice(1) });
  },
  complement: (t) => {
    const v = readComplement(parseConfig(t));
    return editComplement(t, {
      ...v,
      driveType: v.driveType as 'none',
      googleApiKey: 'ancienne-cle',
      mailRapport: { ...v.mailRapport, notifErr: !v.mailRapport.notifErr },
    });
  },
  planifications: (t) => {
    const v = readPlanifications(parseConfig(t));
    return editPlanifications(t, {
      plannings: [...v.plannings, { day: 3, time: '06:15', type: 'R' }] as {
        day: number;
        time: string;
        type: 'R';
      }[],
    });
  },
  terminal: (t) => {
    const term = readTerminals(parseConfig(t)).terminals[1]!;
    const authorizations = term.authorizations.map((a, i) =>
      i === 0 ? ({ ...a, Autorise: a.Autorise === 1 ? 0 : 1 } as const) : a,
    );
    return editTerminal(t, 1, { ...term, Nom: 'Ancien nom', authorizations });
  },
};

/** The newest version: the connector wrote its parts and every section was changed again. */
function newest(): string {
  let t = editConnectorParts(FIXTURE, {
    Info: { VersionConnecteur: '9.9.9' },
    DerSynchro: { DateHeure: '20261126101500000', NbEnreg: '12' },
    Sources: [{ index: 1, Status: '0', StatusLibelle: 'Cnx 1 KO' }],
  });
  const sources = readSources(parseConfig(t)).sources;
  sources[0] = { ...sources[0]!, Serveur: 'NOUVEAU-SRV', MDP: 'nouveau-secret' };
  t = editSources(t, { sources });
  const c = readComplement(parseConfig(t));
  t = editComplement(t, {
    ...c,
    driveType: c.driveType as 'none',
    mailRapport: { ...c.mailRapport, mailDestinataire: 'nouveau@example.com' },
  });
  const p = readPlanifications(parseConfig(t));
  return editPlanifications(t, {
    plannings: p.plannings.slice(1) as { day: number; time: string; type: 'C' }[],
  });
}

const sectionTexts = (text: string) => {
  const d = parseConfig(text);
  return Object.fromEntries(SECTION_ORDER.map((n) => [n, d.sectionText(n)]));
};

describe('restoreScopes on the fixture', () => {
  const current = newest();
  for (const kind of Object.keys(OLD_EDITS) as EditKind[]) {
    it(`${kind}: the old scope comes back byte for byte, every other section and the connector's nodes stay`, () => {
      const old = OLD_EDITS[kind](FIXTURE);
      expect(old).not.toBe(FIXTURE);
      const restored = restoreScopes(current, old, [kind]);
      if (kind === 'terminal') {
        expect(editScope(restored, 'terminal', 1)).toBe(editScope(old, 'terminal', 1));
      } else expect(editScope(restored, kind)).toBe(editScope(old, kind));
      const before = sectionTexts(current);
      const after = sectionTexts(restored);
      for (const name of SECTION_ORDER) {
        if (name !== EDIT_SECTION[kind]) expect(after[name], name).toBe(before[name]);
      }
      // Every other edit's scope is the newest one's (Liaisons_Externes holds two).
      for (const other of Object.keys(OLD_EDITS) as EditKind[]) {
        if (other !== kind && other !== 'terminal')
          expect(editScope(restored, other)).toBe(editScope(current, other));
      }
      // Inside the section, what the connector writes is as it is now.
      const now = parseConfig(current);
      const back = parseConfig(restored);
      const sources = (d: typeof now) =>
        d.section('Sources')!.children.length > 0
          ? readSources(d).sources.map((s) => [s.Status, s.StatusLibelle])
          : [];
      expect(sources(back)).toEqual(sources(now));
      for (const token of ['Tokens', 'Token', 'EspaceClient', 'NuxiSavOnLine', 'IP_Public']) {
        const all = (t: string) => t.match(new RegExp(`<${token}[\\s\\S]*?</${token}>`, 'g')) ?? [];
        expect(all(restored), token).toEqual(all(current));
      }
    });
  }

  it('brings back the old secrets (not the placeholder), and restoring the newest version again gives its text', () => {
    const old = OLD_EDITS.sources(FIXTURE);
    const restored = restoreScopes(current, old, ['sources']);
    expect(restored).toContain('ancien-secret-1');
    expect(restored).not.toContain('nouveau-secret');
    expect(restored).not.toContain(SECRET_PLACEHOLDER);
    expect(restoreScopes(restored, current, ['sources'])).toBe(current);
  });

  it('the whole version: every scope of the old one, the connector parts of the newest', () => {
    const old = (Object.keys(OLD_EDITS) as EditKind[]).reduce((t, k) => OLD_EDITS[k](t), FIXTURE);
    const restored = restoreScopes(current, old, Object.keys(OLD_EDITS) as EditKind[]);
    for (const n of ['Info', 'DerSynchro', 'Data'])
      expect(parseConfig(restored).sectionText(n)).toBe(parseConfig(current).sectionText(n));
    expect(restoreScopes(current, current, Object.keys(OLD_EDITS) as EditKind[])).toBe(current);
  });

  it('field-level changes of every section: screen labels, decoded values, secrets only as modifié', () => {
    const old = (Object.keys(OLD_EDITS) as EditKind[]).reduce((t, k) => OLD_EDITS[k](t), FIXTURE);
    const all = sectionChanges(FIXTURE, old, HISTORY_SECTION_KEYS);
    expect(all.map((s) => s.section)).toEqual(HISTORY_SECTION_KEYS);
    const text = JSON.stringify(all);
    for (const secret of ['ancien-secret-1', 'ancien-secret-2', 'ancienne-cle'])
      expect(text).not.toContain(secret);
    const sources = all.find((s) => s.section === 'sources')!;
    expect(sources.summary).toBe('Base de données source\u00a0: connexion 1 modifiée');
    expect(sources.fields).toContainEqual({
      label: 'Connexion 1 — Serveur',
      before: expect.any(String),
      after: 'ANCIEN-SRV',
      secret: false,
      changed: true,
    });
    expect(sources.fields).toContainEqual({
      label: 'Connexion 1 — Mot de passe',
      before: null,
      after: null,
      secret: true,
      changed: true,
    });
    const planning = all.find((s) => s.section === 'planifications')!;
    expect(planning.summary).toBe('Planification\u00a0: 1\u00a0planning ajouté');
    expect(planning.fields).toContainEqual(
      expect.objectContaining({ label: 'Planification', before: '', after: 'Mercredi 06:15 Incrémentale' }),
    );
    const terminals = all.find((s) => s.section === 'terminals')!;
    expect(terminals.summary).toBe('Terminaux\u00a0: terminal #2 modifié');
    expect(
      terminals.fields.some((f) => f.label.startsWith("Terminal #2 (Ancien nom) — Nom de l'utilisateur")),
    ).toBe(true);
    // Decoded from the connector's convention: no mojibake in what is shown.
    expect(text).not.toMatch(/Ã/);
    expect(sectionChanges(FIXTURE, FIXTURE, HISTORY_SECTION_KEYS).every((s) => s.fields.length === 0)).toBe(
      true,
    );
  });

  it('scope generations: a scope keeps its generation until its bytes change', () => {
    const v1 = scopeGenerations(null, null, doc, 1);
    expect(changedScopes(v1, 1).kinds).toHaveLength(7);
    const t2 = OLD_EDITS.planifications(FIXTURE);
    const v2 = scopeGenerations(doc, v1, parseConfig(t2), 2);
    expect(changedScopes(v2, 2)).toEqual({ kinds: ['planifications'], terminals: [] });
    const t3 = OLD_EDITS.terminal(editConnectorParts(t2, { DerSynchro: { NbEnreg: '3' } }));
    const v3 = scopeGenerations(parseConfig(t2), v2, parseConfig(t3), 3);
    expect(changedScopes(v3, 3)).toEqual({ kinds: [], terminals: [1] });
    expect(v3.kinds.planifications).toBe(2);
    expect(v3.kinds.sources).toBe(1);
  });
});
