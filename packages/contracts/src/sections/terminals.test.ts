import { describe, expect, it } from 'vitest';
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
