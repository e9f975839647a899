import { describe, expect, it } from "vitest";
import { fetchImage } from "../../src/net/image-fetch";
import { checkOutboundUrl, privateHostReason, webhookUrlPolicy } from "../../src/net/url-policy";

const production = { allowHttp: false, privateHostsAllowed: [] };
const localDev = { allowHttp: true, privateHostsAllowed: ["127.0.0.1", "localhost"] };

describe("checkOutboundUrl", () => {
  it.each([
    "https://partner.example.com/hooks",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://partner.example.com:8443/a?b=c",
    "https://[64:ff9b::808:808]/hook",
  ])("accepts the public https URL %s", (url) => {
    expect(checkOutboundUrl(url, production).ok).toBe(true);
  });

  it.each([
    ["http://partner.example.com/", "must use https"],
    ["ftp://partner.example.com/", "must use https"],
    ["javascript:alert(1)", "must use https"],
    ["https://localhost/", "localhost"],
    ["https://api.localhost/", "localhost"],
    ["https://LOCALHOST./", "ending in a dot"],
    ["https://localhost../", "ending in a dot"],
    ["https://partner.example.com./", "ending in a dot"],
    ["https://metadata.google.internal/", "internal host"],
    ["https://10.1.2.3/", "a private address"],
    ["https://172.16.0.1/", "a private address"],
    ["https://172.31.255.255/", "a private address"],
    ["https://192.168.1.1/", "a private address"],
    ["https://100.64.0.1/", "carrier-grade NAT"],
    ["https://127.0.0.1/", "loopback"],
    ["https://2130706433/", "loopback"],
    ["https://0x7f.1/", "loopback"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://169.254.169.254/", "link-local"],
    ["https://224.0.0.1/", "multicast"],
    ["https://255.255.255.255/", "broadcast"],
    ["https://240.0.0.1/", "reserved"],
    ["https://[::1]/", "loopback"],
    ["https://[::]/", "unspecified"],
    ["https://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["https://[::ffff:8.8.8.8]/", "IPv4-mapped"],
    ["https://[::ffff:0:a00:1]/", "IPv4-translated"],
    ["https://[::ffff:10.0.0.1]/", "IPv4-mapped"],
    ["https://[64:ff9b::a9fe:a9fe]/", "NAT64 address of a link-local"],
    ["https://[64:ff9b::10.0.0.1]/", "NAT64 address of a private"],
    ["https://[64:ff9b::127.0.0.1]/", "NAT64 address of a loopback"],
    ["https://[fec0::1]/", "site-local"],
    ["https://[fed0:1::2]/", "site-local"],
    ["https://[fe80::1]/", "link-local"],
    ["https://[fc00::1]/", "unique local"],
    ["https://[ff02::1]/", "multicast"],
    ["https://[2001:db8::1]/", "reserved"],
    ["https://router.home.arpa/", "internal host"],
    ["https://user:secret@partner.example.com/", "credentials"],
    ["/relative/path", "absolute URL"],
    [`https://partner.example.com/${"a".repeat(2100)}`, "2048"],
  ])("refuses %s (%s)", (url, reason) => {
    const verdict = checkOutboundUrl(url, production);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(reason);
  });

  it("allows http and the listed private hosts in local development only", () => {
    expect(checkOutboundUrl("http://127.0.0.1:4900/hook", localDev).ok).toBe(true);
    expect(checkOutboundUrl("http://localhost:4900/hook", localDev).ok).toBe(true);
    expect(checkOutboundUrl("http://10.0.0.1/hook", localDev).ok).toBe(false);
    expect(checkOutboundUrl("http://169.254.169.254/", localDev).ok).toBe(false);
    expect(checkOutboundUrl("http://127.0.0.1:4900/hook", production).ok).toBe(false);
  });

  it("allows only the listed ports in production, any port for the local private hosts", () => {
    const policy = webhookUrlPolicy({
      ALLOW_HTTP_WEBHOOKS: true,
      PRIVATE_HOSTS_ALLOWED: ["127.0.0.1"],
      OUTBOUND_PORTS_ALLOWED: [443, 8443],
    });
    expect(checkOutboundUrl("https://partner.example.com/hook", policy).ok).toBe(true);
    expect(checkOutboundUrl("https://partner.example.com:8443/hook", policy).ok).toBe(true);
    const refused = checkOutboundUrl("https://partner.example.com:6379/hook", policy);
    expect(refused).toEqual({ ok: false, reason: "must use port 443, 8443" });
    // http's default port 80 is not in this list.
    expect(checkOutboundUrl("http://partner.example.com/hook", policy).ok).toBe(false);
    expect(checkOutboundUrl("http://127.0.0.1:4900/hook", policy).ok).toBe(true);
    const anyPort = webhookUrlPolicy({
      ALLOW_HTTP_WEBHOOKS: false,
      PRIVATE_HOSTS_ALLOWED: [],
      OUTBOUND_PORTS_ALLOWED: [],
    });
    expect(checkOutboundUrl("https://partner.example.com:6379/hook", anyPort).ok).toBe(true);
  });

  it("judges ordinary host names as public", () => {
    expect(privateHostReason("hooks.partner.example.com")).toBeNull();
    expect(privateHostReason("10.example.com")).toBeNull();
  });
});

describe("fetchImage failures", () => {
  const limits = { maxBytes: 1024, timeoutMs: 2000, PRIVATE_HOSTS_ALLOWED: [], OUTBOUND_PORTS_ALLOWED: [443] };

  it("names the category of a network failure, not the network's own words", async () => {
    const failing = (async () => {
      throw new TypeError("connect ECONNREFUSED 10.1.2.3:443 (internal-lb.corp)");
    }) as typeof fetch;
    const result = await fetchImage("https://images.example.com/a.jpg", limits, failing);
    expect(result).toEqual({ ok: false, tooLarge: false, reason: "could not be reached" });
  });

  it("does not say where a refused redirect pointed", async () => {
    const redirecting = (async () =>
      new Response(null, { status: 302, headers: { location: "https://[fd00::5]:8080/metadata" } })) as typeof fetch;
    const result = await fetchImage("https://images.example.com/a.jpg", limits, redirecting);
    expect(result).toEqual({ ok: false, tooLarge: false, reason: "redirects to a URL that is not allowed" });
  });

  it("refuses an image URL on a port outside the allow-list before fetching", async () => {
    let called = false;
    const fetcher = (async () => {
      called = true;
      return new Response("x");
    }) as typeof fetch;
    const result = await fetchImage("https://images.example.com:2375/a.jpg", limits, fetcher);
    expect(result).toEqual({ ok: false, tooLarge: false, reason: "must use port 443" });
    expect(called).toBe(false);
  });
});
