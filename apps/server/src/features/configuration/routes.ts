import {
  CONFIG_SECTION_PATHS,
  parsePayload,
  ZComplementPayload,
  ZExclusionsPayload,
  ZExternalCalendarsPayload,
  ZExternalLinksPayload,
  ZPlanificationsPayload,
  ZSourcesPayload,
  ZSyncDataPayload,
  ZTerminalPayload,
  type TSaveResponse,
} from '@synchro/contracts';
import {
  editComplement,
  editExclusions,
  editExternalCalendars,
  editExternalLinks,
  editPlanifications,
  editSources,
  editSyncData,
  editTerminal,
  readComplement,
  readDataLists,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readGlobalAuthorizations,
  readPlanifications,
  readSources,
  readSyncData,
  readTerminals,
  ConfigXmlError,
  type ConfigDocument,
  type EditKind,
  readInfo,
} from '@synchro/config-xml';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/types.ts';
import { derive } from '../../domain/config-cache.ts';
import { AppError } from '../../http/errors.ts';
import { isValidTimeZone } from '../../time/zoned.ts';
import { currentInstallation, currentSignIn, requireSession } from '../auth/guard.ts';
import { invalidPayload, parseIfMatch, saveSection, unreadableConfiguration } from './service.ts';

/** The readers behind the GET views of CONFIG_SECTION_PATHS. */
const VIEWS: Record<keyof typeof CONFIG_SECTION_PATHS, (doc: ConfigDocument) => unknown> = {
  sources: readSources,
  externalLinks: readExternalLinks,
  externalCalendars: readExternalCalendars,
  syncData: readSyncData,
  exclusions: readExclusions,
  complement: readComplement,
  planifications: (doc) => {
    const { exe, serial } = readInfo(doc);
    return { ...readPlanifications(doc), xmlInfo: { exe, serial } };
  },
  terminals: (doc) => ({ ...readTerminals(doc), authorizations: readGlobalAuthorizations(doc) }),
  dataLists: readDataLists,
};

export const SAVE_MESSAGES = {
  sources: 'Les paramètres de connexion ont été sauvegardés',
  externalLinks: 'Les liaisons externes ont été mises à jour avec succès.',
  externalCalendars: 'Les agendas externes ont été mis à jour avec succès.',
  syncData: 'Les données de synchronisation ont été sauvegardées',
  exclusions: 'Les exclusions ont été mises à jour.',
  complement: 'Les paramètres complémentaires ont été mis à jour.',
  planifications: 'Les planifications ont été sauvegardées avec succès',
  terminal: 'Les modifications ont été enregistrées avec succès',
} as const satisfies Record<EditKind, string>;

function validBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = parsePayload(schema, body);
  if (!r.ok) throw invalidPayload(r.issues);
  return r.value;
}

/** The parsed newest configuration of the signed-in installation (422 when unreadable). */
async function currentDocument(ctx: AppContext, request: FastifyRequest) {
  const { installation, configVersion } = currentSignIn(request);
  const entry = await ctx.configs.at(ctx.db, installation.id, configVersion);
  if (entry.parsed instanceof ConfigXmlError) throw unreadableConfiguration(entry.parsed);
  return { entry, doc: entry.parsed };
}

export function configurationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const guard = { preHandler: requireSession(ctx) };

  for (const [name, path] of Object.entries(CONFIG_SECTION_PATHS) as [
    keyof typeof CONFIG_SECTION_PATHS,
    string,
  ][]) {
    app.get(path, guard, async (request, reply) => {
      const { entry, doc } = await currentDocument(ctx, request);
      const data = derive(entry, `view:${name}`, () => VIEWS[name](doc));
      void reply.header('ETag', `"${entry.version}"`);
      return { version: entry.version, data };
    });
  }

  /** One POST/PATCH save route: validate, then saveSection with the matching edit. */
  const save = <S extends z.ZodType>(
    request: FastifyRequest,
    schema: S,
    kind: EditKind,
    edit: (doc: ConfigDocument, payload: z.output<S>) => string,
    options: {
      index?: (p: z.output<S>) => number;
      alsoWrite?: (p: z.output<S>) => ((tx: Queryable) => Promise<void>) | undefined;
    } = {},
  ): Promise<TSaveResponse> => {
    const ifMatch = parseIfMatch(request.headers['if-match']);
    const payload = validBody(schema, request.body);
    const installation = currentInstallation(request);
    const index = options.index?.(payload);
    const alsoWrite = options.alsoWrite?.(payload);
    return saveSection(ctx.db, {
      installation,
      kind,
      ...(index !== undefined ? { index } : {}),
      ifMatch,
      edit: (doc) => edit(doc, payload),
      message: SAVE_MESSAGES[kind],
      address: request.ip,
      ...(alsoWrite ? { alsoWrite } : {}),
    });
  };

  app.post('/api/database/sources', guard, (req) => save(req, ZSourcesPayload, 'sources', editSources));
  app.post('/api/database/external-links', guard, (req) =>
    save(req, ZExternalLinksPayload, 'externalLinks', editExternalLinks),
  );
  app.post('/api/database/external-calendars', guard, (req) =>
    save(req, ZExternalCalendarsPayload, 'externalCalendars', editExternalCalendars),
  );
  app.post('/api/sync-data/save', guard, (req) => save(req, ZSyncDataPayload, 'syncData', editSyncData));
  app.post('/api/database/exclusions', guard, (req) =>
    save(req, ZExclusionsPayload, 'exclusions', editExclusions),
  );
  app.post('/api/database/complement', guard, (req) =>
    save(req, ZComplementPayload, 'complement', editComplement),
  );

  // Legacy schedule list: {Jour, Heure, Ordre} (spec §7).
  app.get('/api/plannings', guard, async (request) => {
    const { entry, doc } = await currentDocument(ctx, request);
    return derive(entry, 'plannings:legacy', () =>
      readPlanifications(doc).plannings.map((p) => ({ Jour: p.day, Heure: p.time, Ordre: p.type })),
    );
  });

  app.post('/api/plannings', guard, async (req, reply) => {
    try {
      return await save(req, ZPlanificationsPayload, 'planifications', editPlanifications, {
        alsoWrite: (p) =>
          p.timeZone
            ? async (tx) => {
                const installation = currentInstallation(req);
                const label = p.timeZone?.label.trim() ?? '';
                // time_zone keeps an IANA zone (the dashboard's fallback); the label is stored as chosen.
                await tx.query(
                  `UPDATE installations SET time_zone = $2, time_zone_label = $3, updated_at = now() WHERE id = $1`,
                  [installation.id, isValidTimeZone(label) ? label : installation.timeZone, label],
                );
              }
            : undefined,
      });
    } catch (err) {
      // The legacy screen reads an `error` field on failure (spec §7).
      if (err instanceof AppError) {
        return reply
          .status(err.status)
          .send({ message: err.message, ...(err.code ? { code: err.code } : {}), error: err.message });
      }
      throw err;
    }
  });

  app.patch('/api/config/terminal', guard, (req) =>
    save(req, ZTerminalPayload, 'terminal', (doc, p) => editTerminal(doc, p.terminalIndex, p.terminal), {
      index: (p) => p.terminalIndex,
    }),
  );
}
