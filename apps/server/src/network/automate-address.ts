import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses the console may send sync orders to (and accept at the automate's
 * registration). An address is chosen by whoever holds the connector token, so without this
 * policy the console would be a way in to the network it runs in (SSRF): its own loopback, the
 * cloud's metadata service (169.254.169.254), the private LAN. Rules (docs/connector-api.md,
 * « Adresse de l'automate »):
 *
 * - by default only public unicast addresses (IANA special-purpose registries: private, shared
 *   CGNAT, loopback, link-local, multicast, documentation, benchmark, reserved… are refused);
 * - loopback too for the demo installation on the embedded database (its simulator runs beside
 *   the server), and for that installation only: another installation's token holder would
 *   otherwise make the console send orders to ports of its own machine and read the answers;
 * - `AUTOMATE_NETWORKS` (comma-separated CIDR list, IPv4 and IPv6, plus the words `public` and
 *   `loopback`) replaces that default: only the listed networks are allowed, for every
 *   installation.
 *
 * An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is the IPv4 address it carries; the NAT64
 * (`64:ff9b::/96`) and 6to4 (`2002::/16`) forms are judged by the IPv4 address they embed.
 */

/** An address as bytes: 4 (IPv4) or 16 (IPv6). */
export interface IpAddress {
  version: 4 | 6;
  bytes: Uint8Array;
}

/** A network: an address and a prefix length. */
export interface IpNetwork {
  version: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

// ---------------------------------------------------------------------------------------------
// Parsing and writing addresses

function parseIpv4Bytes(text: string): Uint8Array | null {
  if (!isIPv4(text)) return null;
  return Uint8Array.from(text.split('.').map(Number));
}

function parseIpv6Bytes(text: string): Uint8Array | null {
  // A zone (fe80::1%eth0) names an interface of this machine: never an automate's address.
  if (text.includes('%') || !isIPv6(text)) return null;
  let head = text;
  let tailV4: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    tailV4 = parseIpv4Bytes(text.slice(lastColon + 1));
    if (!tailV4) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left = '', right] = head.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const words = right === undefined ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  if (words.length !== 8) return null;
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  if (tailV4) bytes.set(tailV4, 12);
  return bytes;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/**
 * An IPv4 or IPv6 address; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is read as the IPv4
 * address. Null when the text is not an address (a zone `%eth0` included).
 */
export function parseIpAddress(text: string): IpAddress | null {
  const t = text.trim();
  const v4 = parseIpv4Bytes(t);
  if (v4) return { version: 4, bytes: v4 };
  const v6 = parseIpv6Bytes(t);
  if (!v6) return null;
  if (MAPPED_PREFIX.every((b, i) => v6[i] === b)) return { version: 4, bytes: v6.slice(12) };
  return { version: 6, bytes: v6 };
}

/** The usual text of an address: dotted IPv4, or IPv6 compressed (RFC 5952, lower case). */
export function formatIpAddress(address: IpAddress): string {
  if (address.version === 4) return Array.from(address.bytes).join('.');
  const words = Array.from({ length: 8 }, (_, i) => (address.bytes[2 * i]! << 8) | address.bytes[2 * i + 1]!);
  // The longest run of two or more zero words becomes `::` (the first one on a tie).
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLength))}`;
}

/** The normal text of an address (`::ffff:127.0.0.1` → `127.0.0.1`), or null. */
export function normaliseIpAddress(text: string): string | null {
  const parsed = parseIpAddress(text);
  return parsed ? formatIpAddress(parsed) : null;
}

function inNetwork(address: IpAddress, network: IpNetwork): boolean {
  if (address.version !== network.version) return false;
  let bits = network.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address.bytes[i]! & mask) !== (network.bytes[i]! & mask)) return false;
  }
  return true;
}

function formatNetwork(network: IpNetwork): string {
  return `${formatIpAddress(network)}/${network.prefix}`;
}

// ---------------------------------------------------------------------------------------------
// Special-purpose ranges (IANA IPv4 and IPv6 Special-Purpose Address Registries)

/** What kind of address it is; `public` is global unicast. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'unspecified'
  | 'documentation'
  | 'benchmark'
  | 'reserved';

const KIND_LABELS: Record<AddressKind, string> = {
  public: 'une adresse publique',
  loopback: 'une adresse de boucle locale',
  private: 'une adresse privée',
  shared: 'une adresse partagée d’opérateur (CGNAT)',
  'link-local': 'une adresse de lien local',
  'unique-local': 'une adresse locale unique (réseau privé IPv6)',
  multicast: 'une adresse de multidiffusion',
  unspecified: 'une adresse non spécifiée',
  documentation: 'une adresse réservée à la documentation',
  benchmark: 'une adresse réservée aux tests de performance',
  reserved: 'une adresse réservée',
};

function network(cidr: string): IpNetwork {
  const parsed = parseNetwork(cidr);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

const IPV4_SPECIAL: ReadonlyArray<[IpNetwork, AddressKind]> = (
  [
    ['0.0.0.0/8', 'unspecified'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'shared'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'],
    ['192.0.2.0/24', 'documentation'],
    ['192.88.99.0/24', 'reserved'],
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'benchmark'],
    ['198.51.100.0/24', 'documentation'],
    ['203.0.113.0/24', 'documentation'],
    ['224.0.0.0/4', 'multicast'],
    ['240.0.0.0/4', 'reserved'],
  ] as const
).map(([cidr, kind]) => [network(cidr), kind]);

const IPV6_SPECIAL: ReadonlyArray<[IpNetwork, AddressKind]> = (
  [
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['64:ff9b:1::/48', 'reserved'],
    ['100::/64', 'reserved'],
    ['2001::/23', 'reserved'],
    ['2001:db8::/32', 'documentation'],
    ['3fff::/20', 'documentation'],
    ['5f00::/16', 'reserved'],
    ['fc00::/7', 'unique-local'],
    ['fe80::/10', 'link-local'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([cidr, kind]) => [network(cidr), kind]);

const GLOBAL_UNICAST_V6 = network('2000::/3');
const NAT64 = network('64:ff9b::/96');
const SIX_TO_FOUR = network('2002::/16');

export interface AddressClass {
  kind: AddressKind;
  /** The special range it falls in (`10.0.0.0/8`), or null for a public address. */
  range: string | null;
}

/** The kind of an address, from the special-purpose registries. */
export function classifyAddress(address: IpAddress): AddressClass {
  if (address.version === 4) {
    for (const [net, kind] of IPV4_SPECIAL)
      if (inNetwork(address, net)) return { kind, range: formatNetwork(net) };
    return { kind: 'public', range: null };
  }
  // Forms that carry an IPv4 address reach that address: judge it.
  if (inNetwork(address, NAT64)) return classifyAddress({ version: 4, bytes: address.bytes.slice(12) });
  if (inNetwork(address, SIX_TO_FOUR))
    return classifyAddress({ version: 4, bytes: address.bytes.slice(2, 6) });
  for (const [net, kind] of IPV6_SPECIAL)
    if (inNetwork(address, net)) return { kind, range: formatNetwork(net) };
  if (!inNetwork(address, GLOBAL_UNICAST_V6)) return { kind: 'reserved', range: null };
  return { kind: 'public', range: null };
}

// ---------------------------------------------------------------------------------------------
// AUTOMATE_NETWORKS

/** One entry of AUTOMATE_NETWORKS: a network, or every public or every loopback address. */
export type AllowedNetwork = IpNetwork | 'public' | 'loopback';

/** A CIDR (`10.0.0.0/8`, `2001:db8::/32`) or a single address; the French reason when invalid. */
function parseNetwork(text: string): IpNetwork | string {
  const [addressText = '', prefixText, extra] = text.split('/');
  if (extra !== undefined) return `« ${text} » n’est pas un réseau (adresse/longueur attendue)`;
  const address = parseIpAddress(addressText);
  if (!address) return `« ${addressText} » n’est pas une adresse IPv4 ou IPv6`;
  // An IPv4-mapped network is written as IPv6 but matches the IPv4 addresses it maps.
  const mapped = address.version === 4 && !isIPv4(addressText.trim());
  const max = address.version === 4 ? 32 : 128;
  let prefix = max;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText.trim())) return `longueur de préfixe invalide dans « ${text} »`;
    prefix = Number(prefixText) - (mapped ? 96 : 0);
    if (mapped && Number(prefixText) < 96)
      return `« ${text} » : un réseau IPv4 écrit en IPv6 doit avoir un préfixe d’au moins 96`;
    if (prefix > max) return `longueur de préfixe invalide dans « ${text} » (au plus ${max})`;
  }
  const net: IpNetwork = { version: address.version, bytes: address.bytes, prefix };
  const base = { ...net, bytes: net.bytes.map((b, i) => b & maskByte(prefix, i)) };
  if (base.bytes.some((b, i) => b !== net.bytes[i]))
    return `« ${text} » a des bits d’hôte non nuls : vouliez-vous dire ${formatNetwork(base)} ?`;
  return net;
}

function maskByte(prefix: number, index: number): number {
  const bits = prefix - 8 * index;
  if (bits >= 8) return 0xff;
  if (bits <= 0) return 0;
  return (0xff << (8 - bits)) & 0xff;
}

/** Raised for an invalid AUTOMATE_NETWORKS, with a French message naming the faulty entry. */
export class AutomateNetworksError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AutomateNetworksError';
  }
}

/**
 * AUTOMATE_NETWORKS: entries separated by commas (blanks allowed), each a CIDR, a single address,
 * `public` or `loopback`. Throws AutomateNetworksError for an invalid entry or an empty list.
 */
export function parseAutomateNetworks(text: string): AllowedNetwork[] {
  const entries = text
    .split(/[,\s]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new AutomateNetworksError('AUTOMATE_NETWORKS est vide : aucun réseau indiqué.');
  return entries.map((entry) => {
    const word = entry.toLowerCase();
    if (word === 'public' || word === 'loopback') return word;
    const parsed = parseNetwork(entry);
    if (typeof parsed === 'string')
      throw new AutomateNetworksError(`AUTOMATE_NETWORKS invalide : ${parsed}.`);
    return parsed;
  });
}

function formatAllowed(entry: AllowedNetwork): string {
  return typeof entry === 'string' ? entry : formatNetwork(entry);
}

// ---------------------------------------------------------------------------------------------
// The policy

export type AddressCheck =
  | { allowed: true; address: string; kind: AddressKind }
  | { allowed: false; address: string; kind: AddressKind | null; message: string };

export interface AutomateAddressPolicy {
  /** What is allowed, for logs and docs (`public`, `public, loopback (DEMOA001)`). */
  readonly description: string;
  /**
   * Whether the console may reach this address for the installation `syncId`; when not, a French
   * message saying why.
   */
  check(text: string, syncId: string): AddressCheck;
}

export interface AutomateAddressOptions {
  /** AUTOMATE_NETWORKS as set, or undefined/blank for the default. */
  networks?: string | undefined;
  /**
   * The one installation allowed loopback by default: the demo's on the embedded database, whose
   * simulator runs on the server's machine; null for none (PostgreSQL). Ignored when `networks`
   * is set (the list then says everything).
   */
  loopbackSyncId: string | null;
}

/** The policy of a server; throws AutomateNetworksError for an invalid AUTOMATE_NETWORKS. */
export function createAutomateAddressPolicy(options: AutomateAddressOptions): AutomateAddressPolicy {
  const configured = options.networks !== undefined && options.networks.trim() !== '';
  const allowed: AllowedNetwork[] = configured ? parseAutomateNetworks(options.networks ?? '') : ['public'];
  const demo = configured ? null : options.loopbackSyncId;
  const description = allowed.map(formatAllowed).join(', ') + (demo ? `, loopback (${demo})` : '');

  const matches = (address: IpAddress, kind: AddressKind, syncId: string) =>
    (kind === 'loopback' && demo !== null && syncId === demo) ||
    allowed.some((entry) =>
      entry === 'public'
        ? kind === 'public'
        : entry === 'loopback'
          ? kind === 'loopback'
          : inNetwork(address, entry),
    );

  return {
    description,
    check(text: string, syncId: string): AddressCheck {
      const address = parseIpAddress(text);
      if (!address) {
        return {
          allowed: false,
          address: text,
          kind: null,
          message: `« ${text} » n’est pas une adresse IPv4 ou IPv6.`,
        };
      }
      const shown = formatIpAddress(address);
      const { kind, range } = classifyAddress(address);
      if (matches(address, kind, syncId)) return { allowed: true, address: shown, kind };
      const what = `${KIND_LABELS[kind]}${range ? ` (${range})` : ''}`;
      const message = configured
        ? `L’adresse ${shown} (${what}) n’appartient à aucun des réseaux autorisés par ` +
          `AUTOMATE_NETWORKS (${description}) : la console n’y envoie pas d’ordres.`
        : `L’adresse ${shown} est ${what} : la console n’envoie d’ordres qu’à des adresses publiques` +
          `${demo ? ` (et de boucle locale pour la seule installation de démonstration ${demo})` : ''}. ` +
          `Déclarez l’adresse publique du service d’automate, ou autorisez ce réseau avec ` +
          `AUTOMATE_NETWORKS sur le serveur de la console.`;
      return { allowed: false, address: shown, kind, message };
    },
  };
}
