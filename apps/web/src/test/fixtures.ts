import type { TDashboardView, TUser } from '@synchro/contracts';

export const demoUser: TUser = {
  IDSynchro: 'DEMOA001',
  Tablettes: '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom',
  Premium: 1,
  Options: '25;DEMOA001;A',
  ConfigConnecteur: '<Connexion />',
  planningCounts: { C: 1, R: 2, I: 0 },
  configVersion: 3,
};

/** The Général view of the demo installation (values of the fixture connexion-ebp-gescom.xml). */
export const demoDashboard: TDashboardView = {
  syncId: 'DEMOA001',
  softwareName: 'EBP GesCom Open Line',
  premium: true,
  connectorVersion: '6.19.4',
  automate: { state: 'installed', label: 'Version : 6.11.23.9' },
  automateService: {
    ordersRefused: null,
    registered: true,
    online: true,
    lastReportAt: '2025-03-10T11:57:00.000Z',
    lastReportAgeSeconds: 180,
    version: '6.11.23.9',
    machineName: 'SRV-ERP',
    address: '203.0.113.5:8080',
  },
  configUpdatedAt: '2025-03-05T08:33:00.664Z',
  sources: [
    { position: 1, provider: 'SQLOLEDB', status: 1, statusLabel: 'Connexion réussie', failed: false },
    { position: 2, provider: 'MSDASQL', status: 0, statusLabel: 'Échec de connexion', failed: true },
  ],
  lastSync: {
    at: '2025-03-09T07:09:52.542Z',
    type: 'Complète',
    duration: '00:04:11',
    durationAlert: false,
    records: 1838,
    speed: 5927,
    volume: '3,721 Mo',
    volumeAlert: false,
    stale: false,
  },
  terminals: { authorised: 25, declared: 8 },
  planningCounts: { C: 1, R: 2, I: 0 },
  googleKeysRemaining: 'NC',
  displayTimeZone: { zone: 'Europe/Paris', offsetMinutes: 60 },
  configVersion: 3,
  storage: { usedBytes: 1_288_490_189, quotaBytes: 53_687_091_200 },
  supportLinks: {
    remote: 'https://anydesk.com/fr/downloads',
    support: 'https://support.editeur.example/',
    customer: 'https://clients.editeur.example/',
    editor: 'https://www.editeur.example/',
  },
};
