// Outbound URL rules (DESIGN §4): which URLs the service will call (webhook targets now, image
// fetches later). Only IP literals and localhost names are judged here; the host names of
// production targets resolve on Cloudflare's network, where private addresses are not reachable.

export interface UrlPolicy {
  allowHttp: boolean;
  /** Host names (lower case) exempt from the private-address rule, e.g. 127.0.0.1 in local dev. */
  privateHostsAllowed: readonly string[];
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

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
  return { ok: true, url };
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Why `host` is off limits, or null. `host` is a WHATWG-normalised hostname. */
export function privateHostReason(host: string): string | null {
  const bare = stripBrackets(host).replace(/\.$/, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) return "localhost";
  if (bare.endsWith(".internal") || bare.endsWith(".local")) return "an internal host name";
  const v4 = parseIPv4(bare);
  if (v4) return privateIPv4Reason(v4);
  if (host.startsWith("[")) {
    const v6 = parseIPv6(bare);
    if (!v6) return "an unparseable IPv6 address";
    return privateIPv6Reason(v6);
  }
  return null;
}

function parseIPv4(host: string): number[] | null {
  // The URL parser already turned decimal, octal and hex forms (http://2130706433/) into dotted quads.
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates).
function privateIPv4Reason(o: number[]): string | null {
  const [a = 0, b = 0, c = 0] = o;
  if (a === 0) return "a reserved address (0.0.0.0/8)";
  if (a === 10) return "a private address (10.0.0.0/8)";
  if (a === 100 && b >= 64 && b <= 127) return "a carrier-grade NAT address (100.64.0.0/10)";
  if (a === 127) return "a loopback address (127.0.0.0/8)";
  if (a === 169 && b === 254) return "a link-local address (169.254.0.0/16)";
  if (a === 172 && b >= 16 && b <= 31) return "a private address (172.16.0.0/12)";
  if (a === 192 && b === 0 && c === 0) return "a reserved address (192.0.0.0/24)";
  if (a === 192 && b === 0 && c === 2) return "a documentation address (192.0.2.0/24)";
  if (a === 192 && b === 88 && c === 99) return "a reserved address (192.88.99.0/24)";
  if (a === 192 && b === 168) return "a private address (192.168.0.0/16)";
  if (a === 198 && (b === 18 || b === 19)) return "a benchmarking address (198.18.0.0/15)";
  if (a === 198 && b === 51 && c === 100) return "a documentation address (198.51.100.0/24)";
  if (a === 203 && b === 0 && c === 113) return "a documentation address (203.0.113.0/24)";
  if (a >= 224 && a <= 239) return "a multicast address (224.0.0.0/4)";
  if (a >= 240) return "a reserved address (240.0.0.0/4)";
  return null;
}

/** Eight 16-bit groups, or null. Accepts `::` compression and a trailing dotted quad. */
function parseIPv6(host: string): number[] | null {
  const dotted = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(host);
  if (dotted?.[1]) {
    const v4 = parseIPv4(dotted[1]);
    const groups = v4 ? parseIPv6(`${host.slice(0, -dotted[1].length)}0:0`) : null;
    if (!v4 || !groups) return null;
    groups[6] = ((v4[0] ?? 0) << 8) | (v4[1] ?? 0);
    groups[7] = ((v4[2] ?? 0) << 8) | (v4[3] ?? 0);
    return groups;
  }
  const text = host;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(":") : []);
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const groups: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    groups.push(Number.parseInt(group, 16));
  }
  return groups.length === 8 ? groups : null;
}

// IANA IPv6 Special-Purpose Address Registry.
function privateIPv6Reason(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstSixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstSixZero && g5 === 0 && g6 === 0 && g7 === 0) return "the unspecified address (::)";
  if (firstSixZero && g5 === 0 && g6 === 0 && g7 === 1) return "a loopback address (::1)";
  const embedded = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96) carry an IPv4 address.
  if (firstSixZero && (g5 === 0xffff || g5 === 0)) return privateIPv4Reason(embedded) ?? "an IPv4-mapped address";
  if (g0 === 0x64 && g1 === 0xff9b) return privateIPv4Reason(embedded) ?? "a NAT64 address";
  if ((g0 & 0xfe00) === 0xfc00) return "a unique local address (fc00::/7)";
  if ((g0 & 0xffc0) === 0xfe80) return "a link-local address (fe80::/10)";
  if ((g0 & 0xff00) === 0xff00) return "a multicast address (ff00::/8)";
  if (g0 === 0x2001 && g1 === 0x0db8) return "a documentation address (2001:db8::/32)";
  if (g0 === 0x2001 && g1 < 0x0200) return "a reserved address (2001::/23)";
  if (g0 === 0x2002) return "a 6to4 address (2002::/16)";
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return "a discard-only address (100::/64)";
  return null;
}
