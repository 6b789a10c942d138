import { BlockList, isIPv4, isIPv6 } from "node:net";

/** Addresses only a proxy on this machine or the private network can have (never a client on the internet). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["169.254.0.0", 16],
  ["100.64.0.0", 10],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv6");

export function isPrivateAddress(address: string): boolean {
  const mapped = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  if (isIPv4(mapped)) return PRIVATE.check(mapped, "ipv4");
  if (isIPv6(mapped)) return PRIVATE.check(mapped, "ipv6");
  return false;
}

export type TrustProxyOption = boolean | string | ((address: string, hop: number) => boolean);

/**
 * Fastify's `trustProxy` for TRUST_PROXY. Fastify 5 takes a bare hop count as "trust nothing"
 * (a count cannot tell a proxy from a client who wrote the header himself), which made every
 * client look like the proxy and put them all under one login allowance. A count is therefore
 * translated: believe up to that many hops, each of which must be a private or loopback address
 * (a proxy on this machine or the private network). A list of addresses stays Fastify's own rule.
 */
export function trustProxyOption(value: boolean | number | string | undefined): TrustProxyOption {
  if (typeof value !== "number") return value ?? false;
  if (value <= 0) return false;
  const hops = value;
  return (address, hop) => hop < hops && isPrivateAddress(address);
}
