import { z } from 'zod';
import { zConfigText, zConfigLine } from './payload.ts';

/** Name shown for a terminal without a name, or whose name another terminal already has. */
export const TERMINAL_FREE_NAME = 'Libre';

export const ZAutorise = z.union([z.literal(-1), z.literal(0), z.literal(1)]);

export const ZTerminalAuthorization = z.object({
  ID: z.string(),
  Libelle: z.string(),
  /** 1 allowed, 0 forbidden, -1 invisible. */
  Autorise: ZAutorise,
});
export type TTerminalAuthorization = z.infer<typeof ZTerminalAuthorization>;

export const ZCommercial = z.object({ IDInterne: z.string(), Libelle: z.string() });

export const ZTerminalView = z.object({
  /** 0-based position of the Terminal element in Terminaux (the terminalIndex of saves). */
  xmlIndex: z.number().int(),
  /** Name, or TERMINAL_FREE_NAME when empty or already taken by an earlier terminal. */
  Nom: z.string(),
  ID_Tablette: z.string(),
  ID_Smartphone: z.string(),
  /** Has a tablet or a smartphone id. */
  declared: z.boolean(),
  technicienId: z.string(),
  depotId: z.string(),
  commerciaux: z.array(ZCommercial),
  /** The global list, each with this terminal's value (0 when the terminal has none). */
  authorizations: z.array(ZTerminalAuthorization),
});
export type TTerminalView = z.infer<typeof ZTerminalView>;
/** What an edit of a terminal holds: its view without what follows from it (`declared`). */
export type TTerminalEdit = Omit<TTerminalView, 'declared'>;
export const ZTerminalsView = z.object({ terminals: z.array(ZTerminalView) });
export type TTerminalsView = z.infer<typeof ZTerminalsView>;

const zOptionalId = z
  .union([zConfigLine(200), z.null()])
  .optional()
  .transform((v) => (v == null || v.trim() === '' || v === 'none' ? '' : v.trim()));

/** What a terminal save must hold, named when the body or `terminal` is missing. */
const TERMINAL_FIELDS =
  'les champs du terminal (Nom, ID_Tablette, ID_Smartphone, technicienId, depotId, commerciaux, ' +
  'authorizations\u202f; ou Filtres et Autorisations comme les envoyait la console précédente)';

export const ZTerminalInput = z.object(
  {
    Nom: zConfigLine(200),
    ID_Tablette: zConfigLine(200),
    ID_Smartphone: zConfigLine(200),
    /** '' (or 'none') for no default technician. */
    technicienId: zOptionalId,
    /** '' (or 'none') for no default depot. */
    depotId: zOptionalId,
    commerciaux: z
      .array(
        z.object({
          IDInterne: zConfigLine(200).refine((v) => v.trim() !== '', 'Identifiant de commercial vide'),
          Libelle: zConfigText(500),
        }),
      )
      .max(5000, 'Trop de commerciaux'),
    authorizations: z
      .array(
        z.object({
          ID: zConfigLine(20).refine((v) => v.trim() !== '', "Identifiant d'autorisation vide"),
          Autorise: z
            .union([z.number(), z.enum(['-1', '0', '1'])], { error: 'Autorisation attendue : 1, 0 ou -1' })
            .transform(Number)
            .pipe(
              z.union([z.literal(-1), z.literal(0), z.literal(1)], {
                error: 'Autorisation attendue : 1, 0 ou -1',
              }),
            ),
          Libelle: zConfigText(500),
        }),
      )
      .max(1000, 'Trop d’autorisations'),
  },
  {
    error: (issue) =>
      issue.input === undefined
        ? `champ obligatoire\u00a0: ${TERMINAL_FIELDS}`
        : `objet attendu\u00a0: ${TERMINAL_FIELDS}`,
  },
);
export type TTerminalInput = z.input<typeof ZTerminalInput>;

/** The save of the spec's shape (docs/spec-notes.md, Saves of the settings screens). */
const ZFlatTerminalPayload = z.object({
  terminalIndex: z.number({ error: 'Impossible de déterminer le terminal à mettre à jour' }).int().min(0),
  terminal: ZTerminalInput,
});

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** A number where the earlier console's XML-to-JSON conversion may have made one: its text. */
const textOf = (v: unknown): unknown => (typeof v === 'number' ? String(v) : v);
/**
 * The items of a list in that conversion: several are an array, one is the object itself, an
 * empty element `''`. Anything else is left as it is, for the schema to name.
 */
const itemsOf = (group: unknown, item: string): unknown => {
  if (group === undefined || group === null || group === '') return [];
  if (!isRecord(group)) return group;
  const v = group[item];
  if (v === undefined || v === null || v === '') return [];
  return Array.isArray(v) ? v : [v];
};
const fieldsOf = (v: unknown, names: readonly string[]): unknown =>
  isRecord(v) ? Object.fromEntries(names.map((n) => [n, textOf(v[n])])) : v;
/** The id of the first item of a group (`Techniciens: { Technicien: { IDInterne } }`), '' for none. */
const firstId = (group: unknown, item: string): unknown => {
  const items = itemsOf(group, item);
  if (!Array.isArray(items)) return items;
  const first: unknown = items[0];
  return isRecord(first) ? (textOf(first.IDInterne) ?? '') : (first ?? '');
};

const FLAT_KEYS = ['technicienId', 'depotId', 'commerciaux', 'authorizations'];

/**
 * The earlier console's own client sends a terminal in the document's nested shape (docs/earlier-client.md):
 * `{Nom, ID_Tablette, ID_Smartphone, Filtres: {Techniciens: {Technicien: {IDInterne}}, Depots:
 * {Depot: {IDInterne}}, Commerciaux: {Commercial: [{IDInterne, Libelle}]}}, Autorisations:
 * {Autorisation: [{ID, Autorise, Libelle}]}}`. It is the whole terminal as that client holds it: a
 * group it lacks is empty (no technician, no commercial). Turned into the spec's flat shape here,
 * then checked by the same schema, so that both shapes obey the same rules.
 */
function flatTerminal(terminal: unknown): unknown {
  if (!isRecord(terminal) || FLAT_KEYS.some((k) => k in terminal)) return terminal;
  if (!('Filtres' in terminal) && !('Autorisations' in terminal)) return terminal;
  const filtres = isRecord(terminal.Filtres) ? terminal.Filtres : {};
  const commerciaux = itemsOf(filtres.Commerciaux, 'Commercial');
  const authorizations = itemsOf(terminal.Autorisations, 'Autorisation');
  return {
    Nom: textOf(terminal.Nom),
    ID_Tablette: textOf(terminal.ID_Tablette),
    ID_Smartphone: textOf(terminal.ID_Smartphone),
    technicienId: firstId(filtres.Techniciens, 'Technicien'),
    depotId: firstId(filtres.Depots, 'Depot'),
    commerciaux: Array.isArray(commerciaux)
      ? commerciaux.map((c) => fieldsOf(c, ['IDInterne', 'Libelle']))
      : commerciaux,
    authorizations: Array.isArray(authorizations)
      ? authorizations.map((a) => fieldsOf(a, ['ID', 'Autorise', 'Libelle']))
      : authorizations,
  };
}

/**
 * PATCH /api/config/terminal: the spec's flat shape, or the earlier console's nested one
 * (flatTerminal), turned into the flat one here, once. A missing body is an empty one, so that
 * its answer names both fields (« terminalIndex : … ; terminal : champ obligatoire : les champs
 * du terminal (…) »).
 */
export const ZTerminalPayload = z.preprocess((body) => {
  if (body === undefined || body === null) return {};
  return isRecord(body) && 'terminal' in body ? { ...body, terminal: flatTerminal(body.terminal) } : body;
}, ZFlatTerminalPayload);
/** The payload our screens send (the flat shape). */
export type TTerminalPayload = z.input<typeof ZFlatTerminalPayload>;

/** The save that writes a terminal back as it is viewed or edited (`changes` on top). */
export function terminalPayloadOf(
  view: TTerminalEdit,
  changes: Partial<TTerminalInput> = {},
): TTerminalPayload {
  const { Nom, ID_Tablette, ID_Smartphone, technicienId, depotId, commerciaux, authorizations } = view;
  return {
    terminalIndex: view.xmlIndex,
    terminal: {
      Nom,
      ID_Tablette,
      ID_Smartphone,
      technicienId,
      depotId,
      commerciaux,
      authorizations,
      ...changes,
    },
  };
}
