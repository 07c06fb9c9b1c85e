/**
 * What a sync needs from the ConfigConnecteur, read with the project's configuration engine:
 * the wall-clock zone, the declared terminals, the sources that have a provider, Info.
 */
import {
  decodeConnectorText,
  parseConfig,
  readInfo,
  readPlanifications,
  readSources,
  readTerminals,
} from '@synchro/config-xml';
import { DEFAULT_ZONE, zoneOrDefault } from './connector-time.ts';

export interface Terminal {
  /** Nom, decoded from the connector's text convention. */
  name: string;
  /** The terminal's device ids (ID_Tablette, ID_Smartphone), the non-empty ones. */
  deviceIds: string[];
  /** The technician of its filters (IDInterne), '' when none. */
  technicianId: string;
}

export interface Source {
  /** 1-based position of the Source (the index of `Sources[]` in the PATCH). */
  index: number;
  provider: string;
  server: string;
}

export interface Installation {
  zone: string;
  terminals: Terminal[];
  sources: Source[];
  exe: string;
  serial: string;
}

/** An installation whose configuration could not be read: the sync still reports itself. */
export const UNKNOWN_INSTALLATION: Installation = {
  zone: DEFAULT_ZONE,
  terminals: [],
  sources: [],
  exe: '',
  serial: '',
};

export function readInstallation(configText: string): Installation {
  const doc = parseConfig(configText);
  const terminals = readTerminals(doc)
    .terminals.filter((t) => t.declared)
    .map((t) => ({
      name: decodeConnectorText(t.Nom),
      deviceIds: [t.ID_Tablette, t.ID_Smartphone].filter((id) => id !== ''),
      technicianId: t.technicienId,
    }));
  const sources = readSources(doc)
    .sources.map((s, i) => ({
      index: i + 1,
      provider: s.Provider.trim(),
      server: decodeConnectorText(s.Serveur),
    }))
    .filter((s) => s.provider !== '');
  const info = readInfo(doc);
  return {
    zone: zoneOrDefault(readPlanifications(doc).timeZone),
    terminals,
    sources,
    exe: info.exe,
    serial: info.serial,
  };
}
