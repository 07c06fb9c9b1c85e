import type {
  TCommercial,
  TEmployee,
  TSectionView,
  TTerminalAuthorization,
  TTerminalPayload,
  TTerminalView,
} from '@synchro/contracts';

/** GET /api/config/terminals: the terminals and the global feature list. */
type TerminalsView = TSectionView<'terminals'>;

export type Autorise = TTerminalAuthorization['Autorise'];

/** The edits of the selected terminal. */
export interface TerminalForm {
  /** Position of the terminal in the list of the view (the selection). */
  position: number;
  /** Position of its Terminal element in the document: the terminalIndex of the save. */
  xmlIndex: number;
  Nom: string;
  ID_Tablette: string;
  ID_Smartphone: string;
  technicienId: string;
  depotId: string;
  commerciaux: TCommercial[];
  authorizations: TTerminalAuthorization[];
}

/** Shown in place of an empty name. */
export const NO_NAME = 'Sans nom';
/** Value of the empty choice of the technician and depot selectors (Radix needs a non-empty one). */
export const NONE = 'none';

export const UNKNOWN_POSITION = 'Impossible de déterminer le terminal à mettre à jour';

/** A click moves 1 → -1 → 0 → 1 (docs/spec-notes.md, Web: Terminaux). */
export const nextAutorise = (value: Autorise): Autorise => (value === 1 ? -1 : value === -1 ? 0 : 1);

export const AUTORISE_LABELS: Record<Autorise, string> = {
  1: 'Autorisé',
  0: 'Interdit',
  [-1]: 'Invisible',
};

export const displayName = (nom: string) => (nom.trim() === '' ? NO_NAME : nom);

/** 'NOM Prénom', as the connector writes the Libelle of a commercial. */
export const employeeLabel = (e: TEmployee) => [e.Nom, e.Prenom].filter((p) => p.trim() !== '').join(' ');

/** A terminal has a known position when its xmlIndex is a whole number from 0. */
export const knownPosition = (form: TerminalForm) => Number.isInteger(form.xmlIndex) && form.xmlIndex >= 0;

export function toTerminalForm(terminal: TTerminalView, position: number): TerminalForm {
  return {
    position,
    xmlIndex: terminal.xmlIndex,
    Nom: terminal.Nom,
    ID_Tablette: terminal.ID_Tablette,
    ID_Smartphone: terminal.ID_Smartphone,
    technicienId: terminal.technicienId,
    depotId: terminal.depotId,
    commerciaux: terminal.commerciaux.map((c) => ({ IDInterne: c.IDInterne, Libelle: c.Libelle })),
    authorizations: terminal.authorizations.map((a) => ({
      ID: a.ID,
      Libelle: a.Libelle,
      Autorise: a.Autorise,
    })),
  };
}

/** PATCH /api/config/terminal. */
export const toTerminalPayload = (form: TerminalForm): TTerminalPayload => ({
  terminalIndex: form.xmlIndex,
  terminal: {
    Nom: form.Nom,
    ID_Tablette: form.ID_Tablette,
    ID_Smartphone: form.ID_Smartphone,
    technicienId: form.technicienId,
    depotId: form.depotId,
    commerciaux: form.commerciaux.map((c) => ({ IDInterne: c.IDInterne, Libelle: c.Libelle })),
    authorizations: form.authorizations.map((a) => ({ ID: a.ID, Autorise: a.Autorise, Libelle: a.Libelle })),
  },
});

/** The view after a save (shown until the refetch lands). */
export function toTerminalsView(form: TerminalForm, previous: TerminalsView): TerminalsView {
  return {
    ...previous,
    terminals: previous.terminals.map((t, i) =>
      i === form.position
        ? {
            ...t,
            Nom: form.Nom,
            ID_Tablette: form.ID_Tablette.trim(),
            ID_Smartphone: form.ID_Smartphone.trim(),
            declared: form.ID_Tablette.trim() !== '' || form.ID_Smartphone.trim() !== '',
            technicienId: form.technicienId,
            depotId: form.depotId,
            commerciaux: form.commerciaux,
            authorizations: form.authorizations,
          }
        : t,
    ),
  };
}

export const setAll = (form: TerminalForm, Autorise: Autorise): TerminalForm => ({
  ...form,
  authorizations: form.authorizations.map((a) => ({ ...a, Autorise })),
});
