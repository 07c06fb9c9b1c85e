import {
  terminalPayloadOf,
  type TEmployee,
  type TSectionView,
  type TTerminalAuthorization,
  type TTerminalEdit,
  type TTerminalPayload,
  type TTerminalView,
} from '@synchro/contracts';

/** GET /api/config/terminals: the terminals and the global feature list. */
type TerminalsView = TSectionView<'terminals'>;

export type Autorise = TTerminalAuthorization['Autorise'];

/**
 * The edits of the selected terminal: the contract's terminal edit (its `xmlIndex` is the
 * terminalIndex of the save) and its position in the list of the view (the selection).
 */
export interface TerminalForm extends TTerminalEdit {
  position: number;
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
  const { declared: _declared, ...edit } = terminal;
  return {
    ...edit,
    position,
    commerciaux: terminal.commerciaux.map((c) => ({ IDInterne: c.IDInterne, Libelle: c.Libelle })),
    authorizations: terminal.authorizations.map((a) => ({
      ID: a.ID,
      Libelle: a.Libelle,
      Autorise: a.Autorise,
    })),
  };
}

/** PATCH /api/config/terminal. */
export const toTerminalPayload = (form: TerminalForm): TTerminalPayload => terminalPayloadOf(form);

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
