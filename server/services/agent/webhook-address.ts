import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';

/**
 * Which addresses a webhook may not reach (docs/webhooks.md): every non-public IPv4 range, every IPv6 address outside
 * global unicast, the IETF and documentation blocks inside it, every IPv6 form that carries an IPv4 address (mapped,
 * NAT64, 6to4, ISATAP) judged by that IPv4 address, and every address of this host's own interfaces.
 */

const v4Blocked = new net.BlockList();
for (const [range, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the host itself
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
] as const)
  v4Blocked.addSubnet(range, prefix, 'ipv4');

/** Inside global unicast (2000::/3), the blocks that are not ordinary hosts. */
const v6BlockedInGlobal = new net.BlockList();
for (const [range, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID, ...
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const)
  v6BlockedInGlobal.addSubnet(range, prefix, 'ipv6');

/** An IPv6 address as a 128-bit number; null when `text` is not one (zone ids included: no public address has one). */
export function parseIPv6(text: string): bigint | null {
  if (net.isIPv6(text) === false || text.includes('%')) return null;
  let s = text.toLowerCase();
  // A trailing dotted quad (::ffff:1.2.3.4, ::1.2.3.4, 64:ff9b::1.2.3.4) becomes two hex groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length > 1 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

const inPrefix = (value: bigint, prefix: bigint, bits: number) => value >> BigInt(128 - bits) === prefix >> BigInt(128 - bits);
const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => Number((n >> s) & 0xffn)).join('.');
const v6Text = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

const MAPPED = parseIPv6('::ffff:0:0')!; // ::ffff:0:0/96
const NAT64 = parseIPv6('64:ff9b::')!; // 64:ff9b::/96, the well-known NAT64 prefix
const SIX_TO_FOUR = parseIPv6('2002::')!; // 2002::/16, the IPv4 address in bits 16..47
const GLOBAL = parseIPv6('2000::')!; // 2000::/3

/** The IPv4 address an IPv6 address carries and sends traffic to, if it is of a form that does. */
export function embeddedIPv4(v6: bigint): string | null {
  if (inPrefix(v6, MAPPED, 96) || inPrefix(v6, NAT64, 96)) return v4Text(v6 & 0xffffffffn);
  if (inPrefix(v6, SIX_TO_FOUR, 16)) return v4Text((v6 >> 80n) & 0xffffffffn);
  // ISATAP: any /64 with the interface id 0000:5efe:a.b.c.d or 0200:5efe:a.b.c.d (u/l and group bits aside).
  if (((v6 >> 48n) & 0xfcffn) === 0n && ((v6 >> 32n) & 0xffffn) === 0x5efen) return v4Text(v6 & 0xffffffffn);
  return null;
}

/** This host's own addresses, read fresh each time (interfaces come and go): v4 as text, v6 as numbers. */
export function ownAddresses() {
  const v4 = new Set<string>();
  const v6 = new Set<bigint>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) {
      if (a.family === 'IPv4') v4.add(a.address);
      else {
        const n = parseIPv6(a.address.replace(/%.*$/, ''));
        if (n !== null) v6.add(n);
      }
    }
  return { v4, v6 };
}

export type OwnAddresses = ReturnType<typeof ownAddresses>;

function v4Internal(address: string, own: OwnAddresses) {
  return v4Blocked.check(address, 'ipv4') || own.v4.has(address);
}

/**
 * May a webhook not connect to this address (an IP literal, as a resolver returns it)? Anything that is not a
 * plain IP address counts as internal. `own` defaults to this host's interface addresses.
 */
export function isInternalAddress(address: string, own: OwnAddresses = ownAddresses()): boolean {
  if (net.isIPv4(address)) return v4Internal(address, own);
  const v6 = parseIPv6(address);
  if (v6 === null) return true;
  const v4 = embeddedIPv4(v6);
  if (v4 !== null && v4Internal(v4, own)) return true;
  // Mapped and NAT64 addresses lie outside 2000::/3 but go where their (public) IPv4 address goes.
  if (inPrefix(v6, MAPPED, 96) || inPrefix(v6, NAT64, 96)) return false;
  if (!inPrefix(v6, GLOBAL, 3)) return true;
  return v6BlockedInGlobal.check(v6Text(v6), 'ipv6') || own.v6.has(v6);
}

/** An endpoint's host as a resolver or `net.isIP` reads it (no brackets, no trailing dot, lower case); null for a non-URL. */
function hostOf(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  // The WHATWG parser has already turned 2130706433, 0x7f.1, 017700000001 and [::ffff:127.0.0.1] into canonical IPs.
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Does this endpoint name an internal host by itself: an IP literal that `isInternalAddress` refuses, or a
 * `localhost` name (which always means this host)? An endpoint that is not a URL counts as internal.
 */
export function internalEndpoint(endpoint: string, own?: OwnAddresses): boolean {
  const host = hostOf(endpoint);
  if (host === null) return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return net.isIP(host) !== 0 && isInternalAddress(host, own);
}

/** A resolver's answer for a host name: every address it names. */
export type HostLookup = (hostname: string) => Promise<{ address: string }[]>;

const systemLookup: HostLookup = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * Does this endpoint's host name resolve, now, to an address `isInternalAddress` refuses (any of its addresses)?
 * A name that does not resolve, or not within `timeoutMs`, is not known to be internal: it is taken, and each delivery
 * resolves it again and refuses an internal answer (a name can be pointed elsewhere after it is saved).
 */
export async function resolvesInward(
  endpoint: string,
  opts: { lookup?: HostLookup; timeoutMs?: number; own?: OwnAddresses } = {},
): Promise<boolean> {
  const host = hostOf(endpoint);
  if (host === null || net.isIP(host) !== 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<{ address: string }[]>((resolve) => {
    timer = setTimeout(() => resolve([]), opts.timeoutMs ?? 2000);
  });
  const answer = await Promise.race([(opts.lookup ?? systemLookup)(host).catch(() => []), unanswered]);
  clearTimeout(timer);
  return answer.some((a) => isInternalAddress(a.address, opts.own));
}
