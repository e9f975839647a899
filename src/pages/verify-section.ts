// The certificate page's "Verify this certificate" section: the signed attestation itself, how to
// check it without trusting this page, and a QR code of the page's address for a printed label.

import { escapeHtml } from "./html";
import { qrCode, qrSvgGroup } from "./qr";

export interface VerifyFacts {
  number: string;
  /** The certificate page's canonical address (what the QR code encodes). */
  certificateUrl: string;
  /** The compact JWS; null when the certificate is revoked or its photos could not be attested. */
  attestation: string | null;
  revoked: boolean;
}

export const VERIFY_STYLE = `
  .verify { margin-top: 24px; }
  @media (min-width: 760px) { .sheet.verify { grid-template-columns: 1fr 200px; } }
  .verify figure { border: 0; padding: 0; align-self: start; }
  .verify figcaption { overflow-wrap: anywhere; }
  .verify h2 { font-size: 20px; margin: 0 0 8px; }
  .verify .jws { display: block; width: 100%; min-height: 120px; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; white-space: pre-wrap; background: #f5f7fa; border: 1px solid var(--line); border-radius: 8px; padding: 8px; margin: 8px 0; }
  .verify .qr { width: 160px; height: 160px; }
  .verify ol { padding-left: 20px; }
  .verify code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }`;

/** An inline SVG QR code of `url`, `side` CSS pixels wide. */
export function qrSvg(url: string, side: number, className: string): string {
  const code = qrCode(url);
  const units = code.size + 8;
  return `<svg class="${className}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${units} ${units}" width="${side}" height="${side}" role="img" aria-label="${escapeHtml(`QR code of ${url}`)}" shape-rendering="crispEdges">${qrSvgGroup(code, 0, 0, units)}</svg>`;
}

export function verifySection(facts: VerifyFacts): string {
  const qr = `<figure>${qrSvg(facts.certificateUrl, 160, "qr")}<figcaption>Scan to open this page: ${escapeHtml(facts.certificateUrl)}</figcaption></figure>`;
  if (facts.revoked || !facts.attestation) {
    const why = facts.revoked
      ? "This certificate was revoked, so its signed attestation is withdrawn; an attestation copied earlier still verifies, which is why a verifier also checks the status below."
      : "The signed attestation of this certificate is not available right now.";
    return `<section class="sheet verify" id="verify">
    <div><h2>Verify this certificate</h2><p>${why}</p>
    <p>Status, for machines: <a href="/c/${facts.number}/status"><code>/c/${facts.number}/status</code></a></p></div>
    ${qr}
  </section>`;
  }
  return `<section class="sheet verify" id="verify">
    <div><h2>Verify this certificate</h2>
    <p>A page can be forged; this signature cannot. Below is the certificate as a signed JSON Web Signature (Ed25519, <code>EdDSA</code>): the number, the grade and subgrades, the card, and the SHA-256 of the front and back photos as they were graded.</p>
    <textarea class="jws" readonly aria-label="Signed attestation of certificate ${facts.number} (compact JWS)">${escapeHtml(facts.attestation)}</textarea>
    <ol>
      <li>Fetch the public keys once from <a href="/.well-known/jwks.json"><code>/.well-known/jwks.json</code></a>; old keys stay published, so a certificate verifies for good.</li>
      <li>Verify the signature offline with any JOSE library (<code>npm run admin -- verify</code> in this project's repository does it with <code>jose</code>), and that its <code>sub</code> is <code>${facts.number}</code>.</li>
      <li>Hash a photo you were given (<code>sha256sum front.jpg</code>) and compare it with <code>certificate.images.front.sha256</code> in the payload.</li>
      <li>Check online that it was not revoked since: <a href="/c/${facts.number}/status"><code>/c/${facts.number}/status</code></a>.</li>
    </ol></div>
    ${qr}
  </section>`;
}
