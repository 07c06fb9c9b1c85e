import type { VersionRetention } from '../../config/env.ts';
import type { TConnectorConfigPatch, TConnectorConfigPatchAnswer } from '@synchro/contracts';
import type { Db, Queryable } from '../../db/types.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  commitVersion,
  getConfigurationUnlessKnown,
  getConfigurationVersion,
  parseStored,
  prepareVersion,
  writeConfiguration,
} from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';
import { enqueueSyncReported } from '../../domain/mail-rules.ts';
import { OFFLOAD_MIN_BYTES, type Offload } from '../../offload/pool.ts';
import { documentFromLayout } from '@synchro/config-xml';
import { connectorEditTask, editConnectorText, type ConnectorEdit } from './configuration-tasks.ts';

/**
 * The versions named by `If-None-Match` (`"12"`, `W/"12"`, a list), `'any'` for `*`, null when
 * absent or naming no version of ours.
 */
export function parseIfNoneMatch(header: string | string[] | undefined): number[] | 'any' | null {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value.trim() === '') return null;
  if (value.trim() === '*') return 'any';
  const versions = [...value.matchAll(/(?:W\/)?"(\d{1,9})"/g)].map((m) => Number(m[1]));
  return versions.length > 0 ? versions : null;
}

export type ConfigurationRead = { version: number; text: string } | { version: number; text: null };

/**
 * GET /api/connector/v1/configuration: the stored text byte for byte (secrets included: the
 * connector needs them), or nothing (304) when the connector already has this version.
 */
export async function readConfigurationText(
  db: Queryable,
  installationId: string,
  ifNoneMatch: number[] | 'any' | null,
): Promise<ConfigurationRead> {
  if (ifNoneMatch === 'any')
    return { version: await getConfigurationVersion(db, installationId), text: null };
  return getConfigurationUnlessKnown(db, installationId, ifNoneMatch ?? []);
}

/** The nodes a patch writes, for the history's section and the audit (never values). */
function partsOf(patch: TConnectorConfigPatch): string[] {
  const parts: string[] = [];
  if (patch.Info && Object.keys(patch.Info).length > 0) parts.push('Info');
  if (patch.DerSynchro && Object.keys(patch.DerSynchro).length > 0) parts.push('DerSynchro');
  if (patch.Sources && patch.Sources.length > 0) parts.push('Sources');
  if (patch.Data !== undefined) parts.push('Data');
  return parts;
}

/** The history's line for each part the connector writes. */
const CONNECTOR_PART_LINES: Record<string, string> = {
  Info: 'Informations du connecteur',
  DerSynchro: 'Dernière synchronisation',
  Sources: 'États des connexions',
  Data: 'Listes de données (salariés, dépôts, familles…)',
};

/** A fault of the patch found by the engine: 400 (413 when the document would be too large). */

/**
 * PATCH /api/connector/v1/configuration, through the configuration engine in the same
 * compare-and-swap as the console's saves (writeConfiguration): the connector's parts are spliced
 * into the newest text outside any transaction (`editConnectorParts`: only Info, DerSynchro,
 * source statuses and Data change), and the result is written in a short one as the next version
 * (author `connector`), audited without values. A patch that changes nothing writes no version. A new
 * last sync writes its emails (sync report, import) in the same transaction (docs/mail.md).
 */
export async function writeConnectorParts(
  db: Db,
  offload: Offload,
  installation: Installation,
  patch: TConnectorConfigPatch,
  address: string,
  retention: VersionRetention,
  now: Date,
): Promise<TConnectorConfigPatchAnswer> {
  const parts = partsOf(patch);
  return writeConfiguration(db, installation.id, {
    prepare: async (current) => {
      // A big configuration, or a big Data to check, is read and edited in a worker thread
      // (offload/); a small one here. The patch counts too: a 45 MB Data into a small document was
      // scanned here (about a second of the request thread).
      const edit: ConnectorEdit =
        current.text.length + (patch.Data?.length ?? 0) < OFFLOAD_MIN_BYTES
          ? editConnectorText(current.text, patch)
          : await offload.run(connectorEditTask, { text: current.text, patch }).then((out) => ({
              text: out.text,
              beforeLastSync: out.beforeLastSync,
              after: out.after ? documentFromLayout(out.text, out.after) : null,
            }));
      if (edit.text === current.text) return null;
      return {
        edit,
        version: await prepareVersion(db, installation.id, current, edit.text, 'connector', { offload }),
      };
    },
    commit: async (tx, prepared, current): Promise<TConnectorConfigPatchAnswer> => {
      if (!prepared) return { version: current.version };
      const { edit } = prepared;
      const { version } = await commitVersion(tx, installation.id, prepared.version, 'connector', retention, {
        connectorLines: parts.map((p) => CONNECTOR_PART_LINES[p] ?? p),
      });
      await recordAudit(tx, {
        installationId: installation.id,
        syncId: installation.syncId,
        actor: 'connector',
        action: 'config.connector-write',
        address,
        details: { parts, fromVersion: current.version, version },
      });
      await enqueueSyncReported(
        tx,
        installation,
        edit.beforeLastSync,
        patch,
        () => edit.after ?? parseStored(edit.text),
        now,
      );
      return { version };
    },
  });
}
