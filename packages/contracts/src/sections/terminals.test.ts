import { describe, expect, it } from 'vitest';
import { parsePayload } from './payload.ts';
import { terminalPayloadOf, ZTerminalPayload, type TTerminalView } from './terminals.ts';

const view: TTerminalView = {
  xmlIndex: 4,
  Nom: 'Tablette 5',
  ID_Tablette: 'TAB-5',
  ID_Smartphone: '',
  declared: true,
  technicienId: 'T1',
  depotId: '',
  commerciaux: [{ IDInterne: 'C1', Libelle: 'Dupont' }],
  authorizations: [{ ID: 'A1', Libelle: 'Devis', Autorise: 1 }],
};

describe('terminalPayloadOf', () => {
  it('writes the terminal back as viewed, at its position, without the view-only fields', () => {
    const payload = terminalPayloadOf(view);
    expect(payload).toEqual({
      terminalIndex: 4,
      terminal: {
        Nom: 'Tablette 5',
        ID_Tablette: 'TAB-5',
        ID_Smartphone: '',
        technicienId: 'T1',
        depotId: '',
        commerciaux: [{ IDInterne: 'C1', Libelle: 'Dupont' }],
        authorizations: [{ ID: 'A1', Libelle: 'Devis', Autorise: 1 }],
      },
    });
    expect(ZTerminalPayload.safeParse(payload).success).toBe(true);
  });

  it('applies the changes on top', () => {
    expect(terminalPayloadOf(view, { ID_Tablette: 'TAB-6' }).terminal.ID_Tablette).toBe('TAB-6');
  });
});

describe('ZTerminalPayload: the earlier console’s nested shape', () => {
  const flat = {
    terminalIndex: 4,
    terminal: {
      Nom: 'Tablette 5',
      ID_Tablette: 'TAB-5',
      ID_Smartphone: '',
      technicienId: 'T1',
      depotId: 'D2',
      commerciaux: [
        { IDInterne: 'C1', Libelle: 'DUPONT Jean' },
        { IDInterne: 'C2', Libelle: 'MARTIN Léa' },
      ],
      authorizations: [
        { ID: '1', Autorise: 1, Libelle: 'Devis' },
        { ID: '2', Autorise: -1, Libelle: 'Factures' },
      ],
    },
  };

  it('is turned into the flat shape, the same normal form as the spec’s', () => {
    const nested = {
      terminalIndex: 4,
      terminal: {
        Nom: 'Tablette 5',
        ID_Tablette: 'TAB-5',
        ID_Smartphone: '',
        Filtres: {
          Techniciens: { Technicien: { IDInterne: 'T1' } },
          Depots: { Depot: { IDInterne: 'D2' } },
          Commerciaux: {
            Commercial: [
              { IDInterne: 'C1', Libelle: 'DUPONT Jean' },
              { IDInterne: 'C2', Libelle: 'MARTIN Léa' },
            ],
          },
        },
        Autorisations: {
          Autorisation: [
            { ID: '1', Autorise: '1', Libelle: 'Devis' },
            { ID: '2', Autorise: '-1', Libelle: 'Factures' },
          ],
        },
      },
    };
    expect(ZTerminalPayload.parse(nested)).toEqual(ZTerminalPayload.parse(flat));
  });

  it('takes one item as an object, an empty element as none, numbers as their text', () => {
    const parsed = ZTerminalPayload.parse({
      terminalIndex: 0,
      terminal: {
        Nom: 'Poste 1',
        ID_Tablette: 815,
        ID_Smartphone: '',
        Filtres: {
          Techniciens: '',
          Depots: { Depot: { IDInterne: '' } },
          Commerciaux: { Commercial: { IDInterne: 12, Libelle: 'X' } },
        },
        Autorisations: { Autorisation: { ID: 7, Autorise: 0, Libelle: 'Stock' } },
      },
    });
    expect(parsed.terminal).toEqual({
      Nom: 'Poste 1',
      ID_Tablette: '815',
      ID_Smartphone: '',
      technicienId: '',
      depotId: '',
      commerciaux: [{ IDInterne: '12', Libelle: 'X' }],
      authorizations: [{ ID: '7', Autorise: 0, Libelle: 'Stock' }],
    });
  });

  it('a group it lacks is empty: the whole terminal as that client holds it', () => {
    const parsed = ZTerminalPayload.parse({
      terminalIndex: 1,
      terminal: { Nom: 'A', ID_Tablette: '', ID_Smartphone: '', Autorisations: '' },
    });
    expect(parsed.terminal).toMatchObject({
      technicienId: '',
      depotId: '',
      commerciaux: [],
      authorizations: [],
    });
  });

  it('a flat payload is never read as the nested one (a missing flat field is an error, not an empty list)', () => {
    const r = parsePayload(ZTerminalPayload, {
      terminalIndex: 1,
      terminal: { Nom: 'A', ID_Tablette: '', ID_Smartphone: '', technicienId: '', Filtres: {} },
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues.map((i) => i.path)).toEqual(['terminal.commerciaux', 'terminal.authorizations']);
  });

  it('a wrong value in the nested shape is refused in French, naming the field', () => {
    const r = parsePayload(ZTerminalPayload, {
      terminalIndex: 1,
      terminal: {
        Nom: 'A',
        ID_Tablette: '',
        ID_Smartphone: '',
        Autorisations: { Autorisation: [{ ID: '1', Autorise: '2', Libelle: 'Devis' }] },
      },
    });
    expect(r).toEqual({
      ok: false,
      issues: [{ path: 'terminal.authorizations.0.Autorise', message: 'Autorisation attendue : 1, 0 ou -1' }],
    });
  });

  it.each([undefined, null, {}])('an empty body (%j) names what is missing', (body) => {
    const r = parsePayload(ZTerminalPayload, body);
    expect(r).toEqual({
      ok: false,
      issues: [
        { path: 'terminalIndex', message: 'Impossible de déterminer le terminal à mettre à jour' },
        {
          path: 'terminal',
          message:
            'champ obligatoire\u00a0: les champs du terminal (Nom, ID_Tablette, ID_Smartphone, technicienId, ' +
            'depotId, commerciaux, authorizations\u202f; ou Filtres et Autorisations comme les envoyait la console ' +
            'précédente)',
        },
      ],
    });
  });
});
