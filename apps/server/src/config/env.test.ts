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
