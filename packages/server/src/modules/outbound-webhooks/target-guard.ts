import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { AppError } from "../../lib/app-error.js";

/**
 * Addresses an outbound webhook must not reach unless the admin allows private targets: loopback,
 * private, link-local (cloud metadata), CGNAT, unspecified, multicast, reserved and documentation
 * ranges; IPv6 ULA, link-local, multicast, NAT64 and the IPv4-compatible/-mapped forms (BlockList
 * checks an IPv4-mapped IPv6 address against the IPv4 rules).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 96],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(network, prefix, "ipv6");

/** Whether an IP address is one a webhook may not reach by default (anything not an IP counts as blocked). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A URL's host as an IP literal (without IPv6 brackets), or undefined for a name. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) ? host : undefined;
}

export class TargetRefused extends Error {
  constructor(
    readonly code: "ERR_WEBHOOK_PRIVATE_TARGET" | "ERR_WEBHOOK_UNRESOLVABLE",
    message: string,
  ) {
    super(message);
  }
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/** The addresses a URL's host stands for, refused when any of them is private (unless allowed). */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<string[]> {
  const literal = ipLiteralOf(url);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = (await resolveAll(url.hostname)).map((a) => a.address);
    } catch (error) {
      throw new TargetRefused("ERR_WEBHOOK_UNRESOLVABLE", `${url.hostname} could not be resolved (${(error as Error).message})`);
    }
    if (addresses.length === 0) throw new TargetRefused("ERR_WEBHOOK_UNRESOLVABLE", `${url.hostname} has no address`);
  }
  const blocked = allowPrivate ? undefined : addresses.find(isBlockedAddress);
  if (blocked) throw new TargetRefused("ERR_WEBHOOK_PRIVATE_TARGET", `${url.hostname} is a private address (${blocked})`);
  return addresses;
}

/** At registration and update: a 400 with the reason's code. */
export async function assertAllowedTarget(raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("ERR_VALIDATION", { details: [{ path: ["url"], message: "Invalid URL" }] });
  }
  try {
    await resolveTarget(url, allowPrivate);
  } catch (error) {
    if (error instanceof TargetRefused) throw new AppError(error.code, { details: [{ path: ["url"], message: error.message }] });
    throw error;
  }
}

/**
 * The `lookup` of the delivery's socket: it resolves the name once, checks every address and
 * connects to one of them, so a DNS answer that changes between the check and the connection
 * (rebinding) cannot lead it to a private address.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const blocked = allowPrivate ? undefined : addresses.find((a) => isBlockedAddress(a.address));
      if (blocked || addresses.length === 0) {
        const refused = new TargetRefused(
          blocked ? "ERR_WEBHOOK_PRIVATE_TARGET" : "ERR_WEBHOOK_UNRESOLVABLE",
          blocked ? `${hostname} resolves to a private address (${blocked.address})` : `${hostname} has no address`,
        );
        return callback(refused as NodeJS.ErrnoException, "", 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
