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

export const ZTerminalInput = z.object({
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
});
export type TTerminalInput = z.input<typeof ZTerminalInput>;

/** PATCH /api/config/terminal. */
export const ZTerminalPayload = z.object({
  terminalIndex: z.number({ error: 'Impossible de déterminer le terminal à mettre à jour' }).int().min(0),
  terminal: ZTerminalInput,
});
export type TTerminalPayload = z.input<typeof ZTerminalPayload>;

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
