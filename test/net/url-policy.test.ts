import { describe, expect, it } from "vitest";
import { checkOutboundUrl, privateHostReason } from "../../src/net/url-policy";

const production = { allowHttp: false, privateHostsAllowed: [] };
const localDev = { allowHttp: true, privateHostsAllowed: ["127.0.0.1", "localhost"] };

describe("checkOutboundUrl", () => {
  it.each([
    "https://partner.example.com/hooks",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://partner.example.com:8443/a?b=c",
  ])("accepts the public https URL %s", (url) => {
    expect(checkOutboundUrl(url, production).ok).toBe(true);
  });

  it.each([
    ["http://partner.example.com/", "must use https"],
    ["ftp://partner.example.com/", "must use https"],
    ["javascript:alert(1)", "must use https"],
    ["https://localhost/", "localhost"],
    ["https://api.localhost/", "localhost"],
    ["https://LOCALHOST./", "localhost"],
    ["https://metadata.google.internal/", "internal host"],
    ["https://10.1.2.3/", "10.0.0.0/8"],
    ["https://172.16.0.1/", "172.16.0.0/12"],
    ["https://172.31.255.255/", "172.16.0.0/12"],
    ["https://192.168.1.1/", "192.168.0.0/16"],
    ["https://100.64.0.1/", "100.64.0.0/10"],
    ["https://127.0.0.1/", "127.0.0.0/8"],
    ["https://2130706433/", "127.0.0.0/8"],
    ["https://0x7f.1/", "127.0.0.0/8"],
    ["https://0.0.0.0/", "0.0.0.0/8"],
    ["https://169.254.169.254/", "169.254.0.0/16"],
    ["https://224.0.0.1/", "224.0.0.0/4"],
    ["https://255.255.255.255/", "240.0.0.0/4"],
    ["https://[::1]/", "::1"],
    ["https://[::]/", "::"],
    ["https://[::ffff:127.0.0.1]/", "127.0.0.0/8"],
    ["https://[::ffff:10.0.0.1]/", "10.0.0.0/8"],
    ["https://[64:ff9b::a9fe:a9fe]/", "169.254.0.0/16"],
    ["https://[fe80::1]/", "fe80::/10"],
    ["https://[fc00::1]/", "fc00::/7"],
    ["https://[ff02::1]/", "ff00::/8"],
    ["https://[2001:db8::1]/", "2001:db8::/32"],
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

  it("judges ordinary host names as public", () => {
    expect(privateHostReason("hooks.partner.example.com")).toBeNull();
    expect(privateHostReason("10.example.com")).toBeNull();
  });
});
