import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Db } from '../db/types.ts';
import { AppError } from '../http/errors.ts';
import { recordAudit } from '../domain/audit.ts';
import { validateConfigText } from '../domain/configurations.ts';
import {
  createInstallation,
  resumeInstallation,
  rotateConnectorToken,
  setClientId,
  setExpiry,
  setStorageQuota,
  suspendInstallation,
} from '../domain/installation-admin.ts';
import { listInstallations } from '../domain/installations.ts';
import { ClientIdError, clientIdFrom } from './client-id-input.ts';
import { pruneHistory } from '../domain/history-retention.ts';
import { seedHistory } from './seed-history.ts';

export interface AdminIo {
  /** Opened only once the arguments are valid. */
  openDb: () => Promise<Db>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** The standard input's text, for `--client-id -`. */
  readStdin?: () => Promise<string>;
}

export const ADMIN_USAGE = `Usage :
  npm run admin -- create-installation --sync-id ID [ID CLIENT] [--config FICHIER.xml]
                   [--premium] [--options "25;ID;A"] [--software "1;Nom ERP;CODE|..."] [--bench]
  npm run admin -- set-client-id --sync-id ID [ID CLIENT]
    ID CLIENT (au moins 16 caractères) : --client-id-file FICHIER (première ligne),
    ou --client-id - (lu sur l'entrée standard) ; sans eux, un ID Client est généré et affiché
    une fois. --client-id VALEUR est accepté mais reste dans l'historique du shell.
  npm run admin -- rotate-connector-token --sync-id ID
  npm run admin -- suspend --sync-id ID
  npm run admin -- resume --sync-id ID
  npm run admin -- set-expiry --sync-id ID --expires-at AAAA-MM-JJ[THH:MM:SSZ]|none
  npm run admin -- set-storage-quota --sync-id ID --megabytes N|default
  npm run admin -- list
  npm run admin -- seed-history --sync-id ID --records N --transactions N [--installations K] [--neighbour-rows N] [--audit N] [--force]
    (une installation de banc d'essai seulement, créée avec --bench, sauf --force ;
    --audit N : N événements du journal d'audit, pour le banc d'essai du Journal d'audit)
  npm run admin -- prune-history --days N
    (supprime maintenant, par lots, les enregistrements et transactions de plus de N jours de
    toutes les installations, comme HISTORY_RETENTION_DAYS=N)`;

class UsageError extends Error {}

const OPTIONS = {
  'sync-id': { type: 'string' },
  'client-id': { type: 'string' },
  'client-id-file': { type: 'string' },
  config: { type: 'string' },
  premium: { type: 'boolean' },
  bench: { type: 'boolean' },
  force: { type: 'boolean' },
  options: { type: 'string' },
  software: { type: 'string' },
  'expires-at': { type: 'string' },
  records: { type: 'string' },
  audit: { type: 'string' },
  transactions: { type: 'string' },
  installations: { type: 'string' },
  'neighbour-rows': { type: 'string' },
  megabytes: { type: 'string' },
  days: { type: 'string' },
} as const;

/** An instant from --expires-at: a date (midnight UTC) or an ISO instant; null for 'none'. */
function parseExpiry(value: string): Date | null {
  if (value === 'none') return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(
      `Date d'expiration invalide : ${value} (attendu : AAAA-MM-JJ, une date ISO 8601 ou none).`,
    );
  }
  return date;
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '')
    throw new UsageError(`Argument obligatoire manquant : --${name}.`);
  return value;
}

/** A whole number option (`--records 1000000`, also `1_000_000`); `fallback` when absent. */
function count(values: Record<string, unknown>, name: string, fallback: number): number {
  const value = values[name];
  if (value === undefined) return fallback;
  const text = String(value).replace(/_/g, '');
  if (!/^\d{1,9}$/.test(text))
    throw new UsageError(`--${name} : nombre entier positif attendu (${String(value)}).`);
  return Number(text);
}

/** A declared encoding other than UTF-8 (`<?xml … encoding="ISO-8859-1"?>`), or null. */
function otherDeclaredEncoding(text: string): string | null {
  const declaration = /^\uFEFF?<\?xml[^>]{0,200}?\bencoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']/.exec(text);
  const name = declaration?.[1];
  return name && !/^utf-?8$/i.test(name) ? name : null;
}

/**
 * The configuration file of `--config`, as UTF-8 only: another encoding would be stored with its
 * accents replaced by U+FFFD, silently (the earlier console's « encodings mixed »). Refused with
 * what to do instead.
 */
function readConfigFile(path: string): string {
  let bytes: Buffer;
  try {
    // npm runs scripts from the project root; INIT_CWD is where the command was typed.
    bytes = readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `Impossible de lire le fichier de configuration ${path}` +
        (code === 'ENOENT' ? ' : fichier introuvable.' : ` (${code}).`),
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `Le fichier ${path} n'est pas encodé en UTF-8 : enregistrez-le en UTF-8 avant de l'importer.`,
    );
  }
  const declared = otherDeclaredEncoding(text);
  if (declared)
    throw new UsageError(
      `Le fichier ${path} déclare l'encodage « ${declared} » : la console enregistre les configurations en UTF-8. ` +
        'Convertissez-le en UTF-8 et corrigez sa déclaration (encoding="UTF-8").',
    );
  const problem = validateConfigText(text);
  if (problem) throw new UsageError(`Le fichier ${path} n'est pas une configuration XML valide : ${problem}`);
  return text;
}

/** The client id of the command (client-id-input.ts); its errors are usage errors. */
async function clientIdOf(values: Record<string, unknown>, io: AdminIo) {
  const option = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  try {
    return await clientIdFrom({
      inline: option('client-id'),
      file: option('client-id-file'),
      readStdin: io.readStdin ?? (async () => ''),
      warn: io.err,
    });
  } catch (err) {
    if (err instanceof ClientIdError) throw new UsageError(err.message);
    throw err;
  }
}

/** Opens the database once the arguments are valid, runs `work` and closes it whatever happens. */
async function withDb(io: AdminIo, work: (db: Db) => Promise<unknown>): Promise<void> {
  const db = await io.openDb();
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

/** Runs one admin command; returns the process exit code. */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...rest], options: OPTIONS, strict: true, allowPositionals: false });
    } catch (err) {
      throw new UsageError(`Arguments invalides : ${(err as Error).message}`);
    }
    const values = parsed.values as Record<string, unknown>;
    switch (command) {
      case 'create-installation': {
        const syncId = required(values, 'sync-id');
        const { clientId, generated } = await clientIdOf(values, io);
        const configText = typeof values.config === 'string' ? readConfigFile(values.config) : undefined;
        await withDb(io, async (db) => {
          const { installation, connectorToken } = await createInstallation(db, {
            syncId,
            clientId,
            ...(configText !== undefined ? { configText } : {}),
            premium: values.premium === true,
            options: typeof values.options === 'string' ? values.options : '',
            software: typeof values.software === 'string' ? values.software : '',
            bench: values.bench === true,
          });
          io.out(
            JSON.stringify({
              syncId: installation.syncId,
              connectorToken,
              ...(generated ? { clientId } : {}),
            }),
          );
        });
        return 0;
      }
      case 'set-client-id': {
        const syncId = required(values, 'sync-id');
        const { clientId, generated } = await clientIdOf(values, io);
        await withDb(io, (db) => setClientId(db, syncId, clientId));
        io.out(JSON.stringify({ syncId, clientIdChanged: true, ...(generated ? { clientId } : {}) }));
        return 0;
      }
      case 'rotate-connector-token': {
        const syncId = required(values, 'sync-id');
        let connectorToken = '';
        await withDb(io, async (db) => {
          connectorToken = await rotateConnectorToken(db, syncId);
        });
        io.out(JSON.stringify({ syncId, connectorToken }));
        return 0;
      }
      case 'suspend': {
        const syncId = required(values, 'sync-id');
        await withDb(io, (db) => suspendInstallation(db, syncId));
        io.out(JSON.stringify({ syncId, suspended: true }));
        return 0;
      }
      case 'resume': {
        const syncId = required(values, 'sync-id');
        await withDb(io, (db) => resumeInstallation(db, syncId));
        io.out(JSON.stringify({ syncId, suspended: false }));
        return 0;
      }
      case 'set-expiry': {
        const syncId = required(values, 'sync-id');
        const expiresAt = parseExpiry(required(values, 'expires-at'));
        await withDb(io, (db) => setExpiry(db, syncId, expiresAt));
        io.out(JSON.stringify({ syncId, expiresAt: expiresAt?.toISOString() ?? null }));
        return 0;
      }
      case 'set-storage-quota': {
        const syncId = required(values, 'sync-id');
        const megabytes = required(values, 'megabytes');
        const quotaBytes = megabytes === 'default' ? null : count(values, 'megabytes', 0) * 1024 * 1024;
        if (quotaBytes === 0) throw new UsageError('--megabytes : au moins 1, ou default.');
        await withDb(io, (db) => setStorageQuota(db, syncId, quotaBytes));
        io.out(JSON.stringify({ syncId, storageQuotaBytes: quotaBytes }));
        return 0;
      }
      case 'list': {
        await withDb(io, async (db) => {
          for (const i of await listInstallations(db)) {
            io.out(
              JSON.stringify({
                syncId: i.syncId,
                premium: i.premium,
                options: i.options,
                software: i.software,
                suspended: i.suspended,
                expiresAt: i.expiresAt?.toISOString() ?? null,
                timeZone: i.timeZone,
                bench: i.bench,
                createdAt: i.createdAt.toISOString(),
              }),
            );
          }
        });
        return 0;
      }
      case 'seed-history': {
        const options = {
          syncId: required(values, 'sync-id'),
          records: count(values, 'records', 0),
          transactions: count(values, 'transactions', 0),
          installations: count(values, 'installations', 1),
          force: values.force === true,
          audit: count(values, 'audit', 0),
          ...(values['neighbour-rows'] === undefined
            ? {}
            : { neighbourShare: count(values, 'neighbour-rows', 0) }),
        };
        if (options.installations < 1) throw new UsageError('--installations : au moins 1.');
        await withDb(io, async (db) => {
          const result = await seedHistory(db, { ...options, progress: (line) => io.err(line) });
          io.out(JSON.stringify(result));
        });
        return 0;
      }
      case 'prune-history': {
        const days = count(values, 'days', 0);
        if (days < 1) throw new UsageError('--days : un nombre entier supérieur ou égal à 1.');
        await withDb(io, async (db) => {
          const ms: number[] = [];
          const result = await pruneHistory(db, days, new Date(), {
            onBatch: (_table, _rows, took) => ms.push(took),
          });
          // Each installation that lost rows has it in its journal.
          const syncIds = new Map(
            (
              await db.query<{ id: string; syncId: string }>(
                'SELECT id, sync_id AS "syncId" FROM installations',
              )
            ).map((r) => [r.id, r.syncId]),
          );
          for (const [installationId, deleted] of result.byInstallation)
            await recordAudit(db, {
              installationId,
              syncId: syncIds.get(installationId) ?? null,
              actor: 'admin',
              action: 'history.prune',
              details: { olderThanDays: days, ...deleted },
            });
          ms.sort((a, b) => a - b);
          const p = (q: number) => Math.round((ms[Math.max(0, Math.ceil(q * ms.length) - 1)] ?? 0) * 10) / 10;
          const { byInstallation: _perInstallation, ...summary } = result;
          io.out(
            JSON.stringify({ ...summary, longestBatchMs: p(1), batchMsP50: p(0.5), batchMsP95: p(0.95) }),
          );
        });
        return 0;
      }
      default:
        throw new UsageError(command ? `Commande inconnue : ${command}.` : 'Aucune commande indiquée.');
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`Erreur : ${err.message}`);
      io.err(ADMIN_USAGE);
      return 2;
    }
    if (err instanceof AppError) {
      io.err(`Erreur : ${err.message}`);
      return 1;
    }
    io.err(`Erreur inattendue : ${(err as Error).message}`);
    return 1;
  }
}
