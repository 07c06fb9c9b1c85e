import { request, test, type APIRequestContext } from '@playwright/test';
import {
  CONFIG_SECTIONS,
  TERMINAL_FREE_NAME,
  type ConfigSectionSave,
  type TSaveableSectionKey,
  type TSectionPayload,
  type TSectionResponse,
  type TSectionView,
  type TTerminalView,
} from '@synchro/contracts';
import { E2E_BASE_URL, E2E_CLIENT_ID, E2E_SYNC_ID } from './env.ts';

// Every spec that saves a section of the shared installation puts it back as it found it, so that
// no spec depends on the order of the files: each one starts from the fixture's configuration.

/** A console API session of the e2e installation (the same login as the browser's). */
async function signedInApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: E2E_BASE_URL });
  const res = await api.post('/api/login', { data: { username: E2E_SYNC_ID, password: E2E_CLIENT_ID } });
  if (!res.ok()) throw new Error(`Connexion API impossible : ${res.status()} ${await res.text()}`);
  return api;
}

async function readView<K extends TSaveableSectionKey>(api: APIRequestContext, section: K) {
  const res = await api.get(CONFIG_SECTIONS[section].getPath);
  if (!res.ok()) throw new Error(`Lecture de ${section} impossible : ${res.status()} ${await res.text()}`);
  // The registry's schema of K parses to TSectionResponse<K> (a generic index TypeScript cannot follow).
  const answer = CONFIG_SECTIONS[section].response.parse(await res.json()) as TSectionResponse<K>;
  return answer.data as TSectionView<K>;
}

async function save<K extends TSaveableSectionKey>(
  api: APIRequestContext,
  section: K,
  payload: TSectionPayload<K>,
): Promise<void> {
  const entry: ConfigSectionSave = CONFIG_SECTIONS[section].save;
  const res = await api.fetch(entry.path, { method: entry.method, data: payload });
  if (!res.ok())
    throw new Error(`Restauration de ${section} impossible : ${res.status()} ${await res.text()}`);
}

/** The terminal save of a terminal as its view shows it (an empty name is shown as 'Libre'). */
const terminalPayload = (t: TTerminalView): TSectionPayload<'terminals'> => ({
  terminalIndex: t.xmlIndex,
  terminal: {
    Nom: t.Nom === TERMINAL_FREE_NAME ? '' : t.Nom,
    ID_Tablette: t.ID_Tablette,
    ID_Smartphone: t.ID_Smartphone,
    technicienId: t.technicienId,
    depotId: t.depotId,
    commerciaux: t.commerciaux,
    authorizations: t.authorizations,
  },
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** How each section is saved back as `before` shows it (`now`: what the spec left). */
const RESTORE: {
  [K in TSaveableSectionKey]: (
    api: APIRequestContext,
    before: TSectionView<K>,
    now: TSectionView<K>,
  ) => Promise<void>;
} = {
  sources: (api, before) =>
    save(api, 'sources', {
      sources: before.sources.map(({ Provider, Serveur, Nom_BDD, Lecture_Seule, Utilisateur, MDP }) => ({
        Provider,
        Serveur,
        Nom_BDD,
        Lecture_Seule,
        Utilisateur,
        MDP,
      })),
    }),
  externalLinks: (api, { Dossier_Import, Dossier_Export, Liaisons }) =>
    save(api, 'externalLinks', { Dossier_Import, Dossier_Export, Liaisons }),
  externalCalendars: (api, { agendaType, mappings }) =>
    save(api, 'externalCalendars', {
      agendaType: agendaType as TSectionPayload<'externalCalendars'>['agendaType'],
      mappings,
    }),
  syncData: (api, { syncData }) => save(api, 'syncData', { syncData }),
  exclusions: (api, { exclusions }) => save(api, 'exclusions', { exclusions }),
  complement: (api, { googleApiKey, driveType, mailRapport, scriptComplementaire }) =>
    save(api, 'complement', {
      googleApiKey,
      driveType: driveType as TSectionPayload<'complement'>['driveType'],
      mailRapport,
      scriptComplementaire,
    }),
  planifications: (api, { plannings, timeZone, timeZoneOffset }) =>
    save(api, 'planifications', {
      plannings: plannings.map(({ day, time, type }) => ({
        day,
        time,
        type: type as TSectionPayload<'planifications'>['plannings'][number]['type'],
      })),
      ...(timeZone && timeZoneOffset ? { timeZone: { value: timeZoneOffset, label: timeZone } } : {}),
    }),
  terminals: async (api, before, now) => {
    for (const [i, terminal] of before.terminals.entries()) {
      if (!same(terminal, now.terminals[i])) await save(api, 'terminals', terminalPayload(terminal));
    }
  },
};

/**
 * Call inside a describe block (or at the top of a spec) for each section its tests save: the
 * section is read before the first test and saved back after the last one, also when a test fails.
 */
export function restoreSectionAfterAll<K extends TSaveableSectionKey>(section: K): void {
  let before: TSectionView<K> | undefined;
  test.beforeAll(async () => {
    const api = await signedInApi();
    before = await readView(api, section);
    await api.dispose();
  });
  test.afterAll(async () => {
    if (before === undefined) return;
    const api = await signedInApi();
    const now = await readView(api, section);
    if (!same(before, now)) await RESTORE[section](api, before, now);
    await api.dispose();
  });
}
