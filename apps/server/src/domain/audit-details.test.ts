import { describe, expect, it } from 'vitest';
import { auditDetails } from './audit-details.ts';

/** The details of every kind of row the server records, as its code writes them. */
const RECORDED: [string, Record<string, unknown>][] = [
  ['mail.test-report', { mail: '7', outcome: 'not-configured', recipients: 2 }],
  ['installation.set-storage-quota', { quotaBytes: 50 * 1024 * 1024 * 1024 }],
  ['installation.set-storage-quota', { quotaBytes: null }],
  ['installation.create', { premium: true, options: '25;DEMOA001;A', bench: true }],
  ['installation.rotate-connector-token', { reason: 'demo-automate' }],
  ['installation.suspend', { reason: 'DEMO=0' }],
  ['installation.resume', { reason: 'DEMO' }],
  ['history.seed', { records: 10, transactions: 20, audit: 30, installations: 1, seconds: 4, force: true }],
  [
    'automate.register',
    {
      ip: '10.0.0.5',
      port: 8080,
      version: '6.11.23.9',
      machineName: 'VM',
      previous: { ip: '10.0.0.4', port: 8081, version: '6.11.23.8' },
    },
  ],
  ['audit.export', { errorOnly: false, from: null, to: null, search: null, kind: 'configuration' }],
  ['login.throttled', { retryAfterSeconds: 60, knownDevice: true }],
  ['history.prune', { olderThanDays: 400, records: 3, transactions: 4 }],
];

describe('auditDetails', () => {
  it('words every detail the server records in French: no key shown as it is stored, no JSON', () => {
    for (const [action, details] of RECORDED) {
      const shown = auditDetails(action, details);
      for (const { label, value } of shown) {
        expect(Object.keys(details), `${action}: ${label}`).not.toContain(label);
        expect(value, `${action}: ${label}`).not.toMatch(/[{}"]/);
      }
    }
  });

  it('says what a « Test rapport » came to, its email and its recipients', () => {
    expect(auditDetails('mail.test-report', { mail: '7', outcome: 'refused', recipients: 2 })).toEqual([
      { label: 'Résultat', value: 'refusé par le serveur d’envoi' },
      { label: 'Email', value: 'n°\u00a07 (« Emails envoyés »)' },
      { label: 'Destinataires', value: '2' },
    ]);
  });

  it('gives a quota in Mo, the automate’s previous report as an address, an exported kind by its name', () => {
    expect(auditDetails('installation.set-storage-quota', { quotaBytes: 2048 * 1024 * 1024 })).toEqual([
      { label: 'Quota', value: '2\u202f048\u00a0Mo' },
    ]);
    expect(
      auditDetails('automate.register', { previous: { ip: '10.0.0.4', port: 8081, version: '6.1' } }),
    ).toEqual([{ label: 'Avant', value: '10.0.0.4:8081, version 6.1' }]);
    expect(auditDetails('audit.export', { kind: 'configuration' })).toEqual([
      { label: 'Type', value: 'Configuration' },
    ]);
  });
});
