import { describe, expect, it } from 'vitest';
import { parseTrustProxy, readEnv } from './env.ts';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.5', '10.0.0.5'],
    [' 10.0.0.5 , 10.1.0.0/16,2001:db8::/32 ', '10.0.0.5,10.1.0.0/16,2001:db8::/32'],
    ['loopback', 'loopback'],
    ['loopback,uniquelocal,linklocal', 'loopback,uniquelocal,linklocal'],
  ])('%j → %j', (text, value) => {
    expect(parseTrustProxy(text)).toEqual(value);
    expect(readEnv({ TRUST_PROXY: text }).trustProxy).toEqual(value);
  });

  it.each(['true', 'TRUE', ' true '])('%j is refused with a French (and English) reason', (text) => {
    expect(() => readEnv({ TRUST_PROXY: text })).toThrow(
      'TRUST_PROXY=true refusé : tout client pourrait alors choisir son adresse (X-Forwarded-For). ' +
        'Indiquez le nombre de proxys devant le serveur (ex. 1) ou leurs adresses (ex. 10.0.0.5,10.1.0.0/16). ' +
        '(TRUST_PROXY=true is refused: give the number of proxies or their addresses.)',
    );
  });

  it.each([
    ['yes', '« yes »'],
    ['10.0.0.300', '« 10.0.0.300 »'],
    ['10.0.0.0/33', '« 10.0.0.0/33 »'],
    ['10.0.0.5,,10.0.0.6', 'entrée vide'],
    ['2001:db8::/129,10.0.0.1/8/2', '« 2001:db8::/129 », « 10.0.0.1/8/2 »'],
  ])('%j is refused, naming the wrong entries', (text, named) => {
    expect(() => readEnv({ TRUST_PROXY: text })).toThrow(`TRUST_PROXY invalide : ${named} (attendu :`);
  });
});

describe('configuration versions kept', () => {
  it('reads CONFIG_VERSIONS_KEEP, _MAX_AGE_DAYS and _MAX_MB (defaults 50, 90 and 256), refusing bad values in French', () => {
    const MB = 1024 * 1024;
    expect(readEnv({}).versionRetention).toEqual({ keep: 50, maxAgeDays: 90, maxBytes: 256 * MB });
    expect(
      readEnv({
        CONFIG_VERSIONS_KEEP: ' 10 ',
        CONFIG_VERSIONS_MAX_AGE_DAYS: '30',
        CONFIG_VERSIONS_MAX_MB: '64',
      }).versionRetention,
    ).toEqual({
      keep: 10,
      maxAgeDays: 30,
      maxBytes: 64 * MB,
    });
    expect(() => readEnv({ CONFIG_VERSIONS_MAX_MB: '0' })).toThrow('CONFIG_VERSIONS_MAX_MB invalide');
    for (const bad of ['0', '-1', 'abc', '1.5', '9999999999'])
      expect(() => readEnv({ CONFIG_VERSIONS_KEEP: bad })).toThrow(
        `CONFIG_VERSIONS_KEEP invalide : ${bad} (attendu : un nombre entier supérieur ou égal à 1).`,
      );
    expect(() => readEnv({ CONFIG_VERSIONS_MAX_AGE_DAYS: 'jamais' })).toThrow(
      'CONFIG_VERSIONS_MAX_AGE_DAYS invalide',
    );
  });
});

describe('DEMO', () => {
  it.each([
    [undefined, 'auto'],
    ['', 'auto'],
    ['1', 'on'],
    ['true', 'on'],
    ['Oui', 'on'],
    ['0', 'off'],
    ['Off', 'off'],
    [' non ', 'off'],
  ])('%j → %j', (text, setting) => {
    expect(readEnv({ DEMO: text }).demo).toBe(setting);
  });

  it('refuses another value in French, naming it', () => {
    expect(() => readEnv({ DEMO: 'peut-être' })).toThrow(
      "DEMO invalide : peut-être (attendu : 1 pour créer l'installation de démonstration, 0 pour l'arrêter).",
    );
  });
});

describe('fair share', () => {
  it('reads OFFLOAD_QUEUE_PER_INSTALLATION and CONFIG_CACHE_MB (defaults 16 and 256), refusing bad values in French', () => {
    const MB = 1024 * 1024;
    expect(readEnv({}).fairShare).toMatchObject({
      offloadQueuePerInstallation: 16,
      configCacheBytes: 256 * MB,
    });
    expect(readEnv({ OFFLOAD_QUEUE_PER_INSTALLATION: '4', CONFIG_CACHE_MB: ' 64 ' }).fairShare).toMatchObject(
      { offloadQueuePerInstallation: 4, configCacheBytes: 64 * MB },
    );
    expect(() => readEnv({ OFFLOAD_QUEUE_PER_INSTALLATION: '0' })).toThrow(
      'OFFLOAD_QUEUE_PER_INSTALLATION invalide : 0 (attendu : un nombre entier supérieur ou égal à 1).',
    );
    expect(() => readEnv({ CONFIG_CACHE_MB: 'beaucoup' })).toThrow('CONFIG_CACHE_MB invalide');
  });
});
