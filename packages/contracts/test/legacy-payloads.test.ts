import { describe, expect, it } from 'vitest';
import { ZExclusionsPayload, ZExternalCalendarsPayload, ZLoginRequest } from '../src/index.ts';

// What the earlier console's own client sends: accepted, and normalised here, once.

describe('ZLoginRequest', () => {
  it('upper-cases the sync id; other characters are still refused', () => {
    expect(ZLoginRequest.parse({ username: 'dEmoa001', password: 'x' }).username).toBe('DEMOA001');
    expect(ZLoginRequest.safeParse({ username: 'demo-1', password: 'x' }).success).toBe(false);
    expect(ZLoginRequest.safeParse({ username: 'ﬀ01', password: 'x' }).success).toBe(false);
  });
});

describe('ZExclusionsPayload', () => {
  it('ART, CLI and FOU are the three family types; a label may be left out', () => {
    const p = ZExclusionsPayload.parse({
      exclusions: [
        { id: 'A', type: 'ART' },
        { id: 'B|b', type: 'CLI', libelle: null },
        { id: 'C|', type: 'FOU', libelle: 'Grossiste' },
        { id: 'D|', type: 'ItemFamily', libelle: 'D' },
      ],
    });
    expect(p.exclusions).toEqual([
      { id: 'A|', type: 'ItemFamily', libelle: undefined },
      { id: 'B|b', type: 'CustomerFamily', libelle: undefined },
      { id: 'C|', type: 'SupplierFamily', libelle: 'Grossiste' },
      { id: 'D|', type: 'ItemFamily', libelle: 'D' },
    ]);
  });

  it('any other type is refused in French', () => {
    const r = ZExclusionsPayload.safeParse({ exclusions: [{ id: 'A|', type: 'NuxiSavOnLine' }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/^Type d'exclusion attendu/);
  });
});

describe('ZExternalCalendarsPayload', () => {
  it('"empty" is no agenda type and a free row', () => {
    const p = ZExternalCalendarsPayload.parse({
      agendaType: 'empty',
      mappings: [
        { ID_Salarie: 'empty', ID_Agenda: 'empty' },
        { ID_Salarie: 'CO1', ID_Agenda: '' },
      ],
    });
    expect(p).toEqual({
      agendaType: '',
      mappings: [
        { ID_Salarie: '-1', ID_Agenda: '-1' },
        { ID_Salarie: 'CO1', ID_Agenda: '-1' },
      ],
    });
    // Another type passes the contract: the edit compares it with the stored one (config-xml).
    expect(ZExternalCalendarsPayload.parse({ agendaType: 'Yahoo', mappings: [] }).agendaType).toBe('Yahoo');
  });
});
