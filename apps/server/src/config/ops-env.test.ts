import { describe, expect, it } from 'vitest';
import { readOpsEnv } from './ops-env.ts';

describe('the settings of running the server as a service', () => {
  it('has no metrics port, no support link, 25 s to stop, by default', () => {
    expect(readOpsEnv({})).toEqual({
      metricsPort: null,
      metricsPerInstallation: false,
      shutdownTimeoutMs: 25_000,
      supportLinks: {},
    });
  });

  it('reads the metrics port, the per-installation labels, the stop time and the links set', () => {
    const ops = readOpsEnv({
      METRICS_PORT: '9464',
      METRICS_PER_INSTALLATION: '1',
      SHUTDOWN_TIMEOUT_SECONDS: '40',
      SUPPORT_SITE_URL: ' https://aide.editeur.example/ ',
      SUPPORT_EDITOR_URL: 'http://www.editeur.example',
      SUPPORT_CUSTOMER_URL: '',
    });
    expect(ops).toEqual({
      metricsPort: 9464,
      metricsPerInstallation: true,
      shutdownTimeoutMs: 40_000,
      supportLinks: { support: 'https://aide.editeur.example/', editor: 'http://www.editeur.example/' },
    });
  });

  it.each([
    [{ METRICS_PORT: '0' }, /METRICS_PORT invalide/],
    [{ METRICS_PORT: 'neuf' }, /METRICS_PORT invalide/],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '0' }, /SHUTDOWN_TIMEOUT_SECONDS invalide/],
    [{ SUPPORT_REMOTE_URL: 'javascript:alert(1)' }, /SUPPORT_REMOTE_URL invalide : une adresse http/],
    [{ SUPPORT_SITE_URL: 'pas une adresse' }, /SUPPORT_SITE_URL invalide/],
  ])('refuses %o with a French message', (env, message) => {
    expect(() => readOpsEnv(env)).toThrow(message);
  });
});
