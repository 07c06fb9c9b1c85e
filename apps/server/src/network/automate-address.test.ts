import { describe, expect, it } from 'vitest';
import {
  AutomateNetworksError,
  classifyAddress,
  createAutomateAddressPolicy,
  normaliseIpAddress,
  parseAutomateNetworks,
  parseIpAddress,
  type AddressKind,
} from './automate-address.ts';

const kindOf = (text: string): AddressKind => {
  const parsed = parseIpAddress(text);
  if (!parsed) throw new Error(`not an address: ${text}`);
  return classifyAddress(parsed).kind;
};

/** An installation that is not the demo. */
const OTHER = 'CLIENT001';
const publicOnly = createAutomateAddressPolicy({ loopbackSyncId: null });
/** The embedded database's default: loopback for the demo installation only. */
const embedded = createAutomateAddressPolicy({ loopbackSyncId: 'DEMOA001' });

describe('parsing and writing addresses', () => {
  it.each([
    ['203.0.114.7', '203.0.114.7'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['2A00:1450:4007:80C::200E', '2a00:1450:4007:80c::200e'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['::', '::'],
    ['::1', '::1'],
    ['fe80::1:2', 'fe80::1:2'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    [' 8.8.8.8 ', '8.8.8.8'],
  ])('%s is written %s', (text, normal) => {
    expect(normaliseIpAddress(text)).toBe(normal);
  });

  it.each([
    '',
    'localhost',
    '256.1.1.1',
    '1.2.3',
    '01.2.3.4',
    'fe80::1%eth0',
    '1::2::3',
    '::ffff:1.2.3.4.5',
    'example.com',
  ])('%j is not an address', (text) => {
    expect(parseIpAddress(text)).toBeNull();
  });
});

describe('classification (IANA special-purpose registries)', () => {
  it.each<[string, AddressKind]>([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.20', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['198.18.0.1', 'benchmark'],
    ['198.19.255.255', 'benchmark'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.88.99.1', 'reserved'],
    // edges of the private ranges are public
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['11.0.0.0', 'public'],
    ['192.169.0.1', 'public'],
    ['203.0.114.7', 'public'],
    ['8.8.8.8', 'public'],
    // IPv4-mapped IPv6 is the IPv4 address
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'], // Teredo
    ['2001:2::1', 'reserved'], // benchmarking
    ['100::1', 'reserved'], // discard-only
    ['64:ff9b:1::1', 'reserved'], // local-use NAT64
    ['5f00::1', 'reserved'], // SRv6 SIDs
    ['::1.2.3.4', 'reserved'], // IPv4-compatible, deprecated
    ['fec0::1', 'reserved'], // site-local, deprecated
    ['4000::1', 'reserved'], // outside 2000::/3
    // NAT64 and 6to4 are judged by the IPv4 address they embed
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::808:808', 'public'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'public'],
    ['2a00:1450:4007:80c::200e', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });
});

describe('the default policy', () => {
  it('allows public addresses only, and says why in French otherwise', () => {
    expect(publicOnly.check('8.8.8.8', OTHER)).toEqual({ allowed: true, address: '8.8.8.8', kind: 'public' });
    expect(publicOnly.check('2606:4700:4700::1111', OTHER).allowed).toBe(true);
    const refused = publicOnly.check('10.0.0.5', OTHER);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.message).toBe(
      'L’adresse 10.0.0.5 est une adresse privée (10.0.0.0/8) : la console n’envoie d’ordres qu’à des ' +
        'adresses publiques. Déclarez l’adresse publique du service d’automate, ou autorisez ce réseau ' +
        'avec AUTOMATE_NETWORKS sur le serveur de la console.',
    );
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '169.254.169.254',
      '100.64.1.1',
      'fd00::1',
      '224.0.0.1',
    ])
      expect(publicOnly.check(ip, OTHER).allowed, ip).toBe(false);
  });

  it('refuses what is not an address', () => {
    const r = publicOnly.check('intranet.local', OTHER);
    expect(r).toMatchObject({ allowed: false, kind: null });
    if (!r.allowed) expect(r.message).toBe('« intranet.local » n’est pas une adresse IPv4 ou IPv6.');
  });

  it('on the embedded database, loopback too for the demo installation (IPv4, IPv6, mapped), and nothing else private', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(embedded.check(ip, 'DEMOA001').allowed, ip).toBe(true);
    expect(embedded.check('::ffff:127.0.0.1', 'DEMOA001').address).toBe('127.0.0.1');
    for (const ip of ['10.1.1.1', '192.168.0.10', '169.254.169.254', 'fe80::1', '0.0.0.0', '::'])
      expect(embedded.check(ip, 'DEMOA001').allowed, ip).toBe(false);
    const r = embedded.check('192.168.0.10', 'DEMOA001');
    if (!r.allowed)
      expect(r.message).toContain(
        '(et de boucle locale pour la seule installation de démonstration DEMOA001)',
      );
    expect(embedded.description).toBe('public, loopback (DEMOA001)');
  });

  it('on the embedded database, another installation may not use loopback (it would reach the console’s own ports)', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '64:ff9b::7f00:1'])
      expect(embedded.check(ip, OTHER).allowed, ip).toBe(false);
    // the sync id is compared exactly (sync ids are upper case A-Z0-9)
    expect(embedded.check('127.0.0.1', 'DEMOA0011').allowed).toBe(false);
    expect(embedded.check('127.0.0.1', 'demoa001').allowed).toBe(false);
    const r = embedded.check('127.0.0.1', OTHER);
    if (r.allowed) throw new Error('allowed');
    expect(r.message).toBe(
      'L’adresse 127.0.0.1 est une adresse de boucle locale (127.0.0.0/8) : la console n’envoie d’ordres ' +
        'qu’à des adresses publiques (et de boucle locale pour la seule installation de démonstration ' +
        'DEMOA001). Déclarez l’adresse publique du service d’automate, ou autorisez ce réseau avec ' +
        'AUTOMATE_NETWORKS sur le serveur de la console.',
    );
  });

  it('AUTOMATE_NETWORKS=loopback given explicitly allows loopback for every installation', () => {
    const loop = createAutomateAddressPolicy({ networks: 'public,loopback', loopbackSyncId: 'DEMOA001' });
    expect(loop.check('127.0.0.1', OTHER).allowed).toBe(true);
    expect(loop.check('::1', 'DEMOA001').allowed).toBe(true);
    expect(loop.description).toBe('public, loopback');
  });
});

describe('AUTOMATE_NETWORKS', () => {
  it('replaces the default: only the listed networks (IPv4 and IPv6)', () => {
    const lan = createAutomateAddressPolicy({
      networks: '10.20.0.0/16, fd00:1234::/32',
      loopbackSyncId: 'DEMOA001',
    });
    expect(lan.check('10.20.3.4', OTHER).allowed).toBe(true);
    expect(lan.check('::ffff:10.20.3.4', OTHER)).toMatchObject({ allowed: true, address: '10.20.3.4' });
    expect(lan.check('fd00:1234:5::9', OTHER).allowed).toBe(true);
    // outside the list: refused, public and loopback included (the list replaces the default)
    for (const ip of ['10.21.0.1', '8.8.8.8', '127.0.0.1', 'fd00:1235::1'])
      expect(lan.check(ip, OTHER).allowed, ip).toBe(false);
    const r = lan.check('8.8.8.8', OTHER);
    if (!r.allowed)
      expect(r.message).toBe(
        'L’adresse 8.8.8.8 (une adresse publique) n’appartient à aucun des réseaux autorisés par ' +
          'AUTOMATE_NETWORKS (10.20.0.0/16, fd00:1234::/32) : la console n’y envoie pas d’ordres.',
      );
  });

  it('accepts the words public and loopback, single addresses and IPv4-mapped networks', () => {
    const p = createAutomateAddressPolicy({
      networks: 'public 192.168.1.7 ::ffff:172.16.0.0/108',
      loopbackSyncId: null,
    });
    expect(p.description).toBe('public, 192.168.1.7/32, 172.16.0.0/12');
    expect(p.check('8.8.8.8', OTHER).allowed).toBe(true);
    expect(p.check('192.168.1.7', OTHER).allowed).toBe(true);
    expect(p.check('192.168.1.8', OTHER).allowed).toBe(false);
    expect(p.check('172.20.1.1', OTHER).allowed).toBe(true);
    expect(p.check('127.0.0.1', OTHER).allowed).toBe(false);
    const all = createAutomateAddressPolicy({ networks: '0.0.0.0/0,::/0', loopbackSyncId: null });
    expect(all.check('169.254.169.254', OTHER).allowed).toBe(true);
    expect(all.check('::1', OTHER).allowed).toBe(true);
    const loop = createAutomateAddressPolicy({ networks: 'loopback', loopbackSyncId: null });
    expect(loop.check('::1', OTHER).allowed).toBe(true);
    expect(loop.check('8.8.8.8', OTHER).allowed).toBe(false);
  });

  it('a blank setting is the default', () => {
    expect(createAutomateAddressPolicy({ networks: '  ', loopbackSyncId: null }).description).toBe('public');
  });

  it.each([
    ['', 'AUTOMATE_NETWORKS est vide : aucun réseau indiqué.'],
    [
      '10.0.0.0/33',
      'AUTOMATE_NETWORKS invalide : longueur de préfixe invalide dans « 10.0.0.0/33 » (au plus 32).',
    ],
    [
      '10.1.2.3/8',
      'AUTOMATE_NETWORKS invalide : « 10.1.2.3/8 » a des bits d’hôte non nuls : vouliez-vous dire 10.0.0.0/8 ?',
    ],
    ['intranet', 'AUTOMATE_NETWORKS invalide : « intranet » n’est pas une adresse IPv4 ou IPv6.'],
    ['10.0.0.0/x', 'AUTOMATE_NETWORKS invalide : longueur de préfixe invalide dans « 10.0.0.0/x ».'],
    [
      '::ffff:10.0.0.0/8',
      'AUTOMATE_NETWORKS invalide : « ::ffff:10.0.0.0/8 » : un réseau IPv4 écrit en IPv6 doit avoir un préfixe d’au moins 96.',
    ],
    [
      'fd00::/129',
      'AUTOMATE_NETWORKS invalide : longueur de préfixe invalide dans « fd00::/129 » (au plus 128).',
    ],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseAutomateNetworks(text)).toThrow(AutomateNetworksError);
    expect(() => parseAutomateNetworks(text)).toThrow(message);
    if (text.trim() !== '')
      expect(() => createAutomateAddressPolicy({ networks: text, loopbackSyncId: 'DEMOA001' })).toThrow(
        message,
      );
  });
});
