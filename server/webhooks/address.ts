/**
 * Where a webhook may be sent (no server-side request forgery): the endpoint's host is resolved
 * here at every attempt, each of its addresses must be a public unicast one (no loopback, private,
 * link-local — the cloud metadata service —, unique-local, carrier-grade NAT, multicast, reserved
 * …), and the request then connects to the very address checked (send.ts), so a DNS answer that
 * changes between check and connect cannot lead it elsewhere. The operator may name hosts in
 * WEBHOOK_ALLOW_HOSTS (comma-separated `host` or `host:port`): those are exempt, and only those may
 * be reached over plain http (tests, internal networks).
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export class AllowedHosts {
  readonly #entries: Set<string>;

  constructor(list: string | undefined) {
    this.#entries = new Set((list ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
  }

  /** The URL's host (with or without its port) is named by the operator. */
  allows(url: URL): boolean {
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return this.#entries.has(host) || this.#entries.has(`${host}:${port}`) || this.#entries.has(`${url.hostname.toLowerCase()}:${port}`);
  }
}

export type UrlProblem = 'invalid' | 'httpNotAllowed';

/** What is wrong with an endpoint's address as written (checked when saved; the address itself at every attempt). */
export function urlProblem(text: string, allowed: AllowedHosts): UrlProblem | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'invalid';
  }
  if (url.username || url.password || !url.hostname) return 'invalid';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return allowed.allows(url) ? undefined : 'httpNotAllowed';
  return 'invalid';
}

/** Public unicast only; an IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 it is. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export interface Target {
  address: string;
  family: 4 | 6;
}

export class AddressNotAllowed extends Error {}

/** The address to connect to, checked now; AddressNotAllowed when the host resolves (even in part) to a refused range. */
export async function resolveTarget(url: URL, allowed: AllowedHosts): Promise<Target> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new AddressNotAllowed(`${host} has no address`);
  if (!allowed.allows(url)) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) throw new AddressNotAllowed(`${host} resolves to ${refused.address}, a non-public address`);
  }
  return { address: addresses[0].address, family: addresses[0].family as 4 | 6 };
}
