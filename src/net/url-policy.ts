// Outbound URL rules (docs/decisions.md §4): which URLs the service will call (webhook targets and image
// fetches). IP literals are classified with ipaddr.js (IANA special-purpose registries): only
// global unicast addresses are allowed. Host names are judged by name (localhost, internal
// suffixes, a trailing dot); production host names resolve on Cloudflare's network, where private
// addresses are not reachable. Ports are limited to an allow-list (README "Security").
import ipaddr from "ipaddr.js";

export interface UrlPolicy {
  allowHttp: boolean;
  /** Host names (lower case) exempt from the private-address and port rules, e.g. 127.0.0.1 in local dev. */
  privateHostsAllowed: readonly string[];
  /** Ports a URL may use (its explicit port, or 443/80 by scheme); empty allows any. */
  portsAllowed?: readonly number[];
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/** The configuration the outbound policies are read from (a subset of the parsed `Config`). */
export interface OutboundConfig {
  ALLOW_HTTP_WEBHOOKS: boolean;
  PRIVATE_HOSTS_ALLOWED: readonly string[];
  OUTBOUND_PORTS_ALLOWED: readonly number[];
}

/** Webhook URLs (partner targets, client webhooks, each delivery): `http://` only where the configuration allows it. */
export function webhookUrlPolicy(config: OutboundConfig): UrlPolicy {
  return {
    allowHttp: config.ALLOW_HTTP_WEBHOOKS,
    privateHostsAllowed: config.PRIVATE_HOSTS_ALLOWED,
    portsAllowed: config.OUTBOUND_PORTS_ALLOWED,
  };
}

export type ImageUrlConfig = Omit<OutboundConfig, "ALLOW_HTTP_WEBHOOKS">;

/** Submitted image URLs: `https://` only, in every configuration. */
export function imageUrlPolicy(config: ImageUrlConfig): UrlPolicy {
  return {
    allowHttp: false,
    privateHostsAllowed: config.PRIVATE_HOSTS_ALLOWED,
    portsAllowed: config.OUTBOUND_PORTS_ALLOWED,
  };
}

export function checkOutboundUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp)) {
    return { ok: false, reason: policy.allowHttp ? "must use https or http" : "must use https" };
  }
  if (url.username || url.password) return { ok: false, reason: "must not carry credentials" };
  const host = url.hostname.toLowerCase();
  if (host === "") return { ok: false, reason: "must name a host" };
  if (policy.privateHostsAllowed.includes(host) || policy.privateHostsAllowed.includes(stripBrackets(host))) {
    return { ok: true, url };
  }
  const privateReason = privateHostReason(host);
  if (privateReason) return { ok: false, reason: `must not point at ${privateReason}` };
  const ports = policy.portsAllowed ?? [];
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (ports.length > 0 && !ports.includes(port)) {
    return { ok: false, reason: `must use port ${ports.join(", ")}` };
  }
  return { ok: true, url };
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

// ipaddr.js range names → words for the caller. Anything not "unicast" is refused.
const RANGE_WORDS: Record<string, string> = {
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  uniqueLocal: "a unique local address",
  deprecatedSiteLocal: "a site-local address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  discard: "a discard-only address",
};

function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a reserved address (${range})`;
}

/** Why `host` is off limits, or null. `host` is a WHATWG-normalised hostname. */
export function privateHostReason(host: string): string | null {
  const bare = stripBrackets(host);
  // `localhost.`, `example.com.`: a trailing dot makes a name absolute and slips past suffix checks.
  if (bare.endsWith(".")) return "a host name ending in a dot";
  if (bare === "localhost" || bare.endsWith(".localhost")) return "localhost";
  if (bare.endsWith(".internal") || bare.endsWith(".local") || bare.endsWith(".home.arpa")) {
    return "an internal host name";
  }
  // The URL parser already turned decimal, octal and hex IPv4 forms (http://2130706433/) into dotted quads.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return addressReason(ipaddr.IPv4.parse(bare));
  if (host.startsWith("[")) {
    if (!ipaddr.IPv6.isValid(bare)) return "an unparseable IPv6 address";
    return addressReason(ipaddr.IPv6.parse(bare));
  }
  return null;
}

const WELL_KNOWN_NAT64 = ipaddr.parseCIDR("64:ff9b::/96");

function addressReason(address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  const range = address.range();
  if (range === "unicast") return null;
  if (address.kind() === "ipv6" && address.match(WELL_KNOWN_NAT64)) {
    // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address: allowed only when that is public.
    const bytes = (address as ipaddr.IPv6).toByteArray().slice(-4);
    const embedded = new ipaddr.IPv4(bytes);
    const inner = embedded.range();
    return inner === "unicast" ? null : `${describeRange("rfc6052")} of ${describeRange(inner)}`;
  }
  return describeRange(range);
}
