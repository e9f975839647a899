// The public certificate page and the "graded by" badge, rendered from a certificate row.
// Plain HTML and SVG, no scripts: they load fast anywhere and are cached whole at the edge.

import type { CertificateRow } from "../db/schema";
import { EVIDENCE_STYLE, evidenceFacts, evidenceSvg } from "./evidence-overlay";
import { escapeHtml } from "./html";
import { qrCode, qrSvgGroup } from "./qr";
import { VERIFY_STYLE, type VerifyFacts, verifySection } from "./verify-section";

/** The words graders print beside a number. */
export function gradeLabel(grade: number): string {
  const labels: [number, string][] = [
    [10, "Gem Mint"],
    [9.5, "Mint+"],
    [9, "Mint"],
    [8.5, "NM-MT+"],
    [8, "NM-MT"],
    [7, "Near Mint"],
    [6, "EX-MT"],
    [5, "Excellent"],
    [4, "VG-EX"],
    [3, "Very Good"],
    [2, "Good"],
    [1, "Poor"],
  ];
  return labels.find(([min]) => grade >= min)?.[1] ?? "Poor";
}

const formatGrade = (grade: number) => (Number.isInteger(grade) ? String(grade) : grade.toFixed(1));

/** "55/45": the share of the first border, from an offset in percentage points off centre. */
const ratio = (offset: number) => {
  const first = Math.round(50 + offset);
  return `${first}/${100 - first}`;
};

const money = (value: number) =>
  value.toLocaleString("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

export interface PageImages {
  front: string;
  back: string;
}

/** Live certificates of the same catalog card: all of them, and those graded at least this high. */
export interface CardPopulation {
  total: number;
  atOrAbove: number;
}

/** What the page shows besides the certificate row. */
export interface PageExtras {
  images: PageImages;
  verify: Omit<VerifyFacts, "number" | "revoked">;
  /** Null when the card is not a verified catalog card (or the certificate is revoked). */
  population: CardPopulation | null;
}

/** What the page, the badge and image descriptions say next to card fields the submitter declared. */
export const DECLARED_NOTE = "declared by the submitter, not verified";

/** True when the certificate's card fields are the submitter's hints rather than an identification. */
const isDeclared = (row: CertificateRow) => row.cardSource === "hints";

/** "2018 Topps Shohei Ohtani", marked when declared; "Unidentified card" when nothing is known. */
export function cardTitle(row: CertificateRow): string {
  const title = [row.year, row.brand, row.player].filter(Boolean).join(" ");
  if (!title) return "Unidentified card";
  return isDeclared(row) ? `${title} (${DECLARED_NOTE})` : title;
}

const BASIS_TEXT: Record<string, string> = {
  catalog_match: "from the identified card's catalog value",
  comparables: "from comparable catalog cards",
  catalog_wide: "from the whole catalog at this grade",
};

export function renderCertificatePage(row: CertificateRow, extras: PageExtras, gradedBy: string): string {
  const { images, population } = extras;
  const revoked = row.revokedAt !== null;
  const declared = isDeclared(row);
  const title = [row.year, row.brand, row.player].filter(Boolean).join(" ") || "Unidentified card";
  const described = cardTitle(row);
  const cardFacts: [string, string | null][] = [
    ["Player", row.player],
    ["Year", row.year],
    ["Brand", row.brand],
    ["Set", row.setName],
    ["Card number", row.cardNumber],
    ["Variant", row.variant],
    ["Category", row.category],
  ];
  const subgrades: [string, number][] = [
    ["Centering", row.centering],
    ["Corners", row.corners],
    ["Edges", row.edges],
    ["Surface", row.surface],
  ];
  const issued = new Date(row.issuedAt).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  // Migration 0004 valued every certificate; the fallbacks only satisfy the nullable column type.
  const basis = BASIS_TEXT[row.valueBasis ?? "catalog_match"] ?? "";
  const value = `<p class="value"><span>Estimated value</span> ${money(row.valueMid ?? 0)} <small>(${money(row.valueLow ?? 0)}–${money(row.valueHigh ?? 0)}, ${escapeHtml(row.valueConfidence)} confidence, ${basis})</small></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Certificate ${row.number} · ${escapeHtml(title)} · ${escapeHtml(gradedBy)}</title>
<meta name="description" content="${escapeHtml(gradedBy)} certificate ${row.number}: ${escapeHtml(title)}, grade ${formatGrade(row.overall)}${revoked ? " (revoked)" : ""}.">
${revoked ? '<meta name="robots" content="noindex">' : ""}
<style>
  :root { color-scheme: light; --ink: #14213d; --muted: #5c677d; --line: #e3e7ee; --accent: #0b6e4f; --bad: #b42318; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f5f7fa; }
  main { max-width: 960px; margin: 0 auto; padding: 24px 16px 48px; }
  header { display: flex; justify-content: space-between; align-items: baseline; flex-wrap: wrap; gap: 8px; }
  header .brand { font-weight: 700; letter-spacing: .04em; text-transform: uppercase; font-size: 14px; color: var(--accent); }
  header .number { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--muted); }
  .revoked { margin: 16px 0; padding: 12px 16px; border-radius: 8px; background: #fef3f2; border: 1px solid #fecdca; color: var(--bad); font-weight: 600; }
  .sheet { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 24px; margin-top: 16px; display: grid; gap: 24px; grid-template-columns: 1fr; }
  @media (min-width: 760px) { .sheet { grid-template-columns: 260px 1fr; } }
  .grade { text-align: center; border-radius: 12px; padding: 20px; background: ${revoked ? "#f2f4f7" : "#ecfdf3"}; }
  .grade .overall { font-size: 72px; font-weight: 800; line-height: 1; color: ${revoked ? "var(--muted)" : "var(--accent)"}; }
  .grade .label { font-size: 18px; font-weight: 600; margin-top: 6px; }
  .subgrades { display: grid; grid-template-columns: repeat(2, 1fr); gap: 8px; margin-top: 16px; }
  .subgrades div { background: #fff; border-radius: 8px; padding: 8px; }
  .subgrades b { display: block; font-size: 22px; }
  .subgrades span, dt, .value span, .population span, .meta { color: var(--muted); font-size: 14px; }
  h1 { font-size: 24px; margin: 0 0 12px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dd { margin: 0; font-weight: 500; }
  .photos { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 16px; margin-top: 24px; }
  figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 12px; text-align: center; }
  figure img { max-width: 100%; height: auto; border-radius: 6px; }
  figcaption { color: var(--muted); font-size: 14px; margin-top: 6px; }${EVIDENCE_STYLE}
  footer { margin-top: 24px; color: var(--muted); font-size: 13px; }
  .declared, .declared-note { color: #b54708; font-size: 13px; font-weight: 500; }${VERIFY_STYLE}
</style>
</head>
<body>
<main>
  <header>
    <span class="brand">${escapeHtml(gradedBy)} · Certificate</span>
    <span class="number">No. ${row.number}</span>
  </header>
  ${revoked ? `<p class="revoked" role="alert">This certificate was revoked on ${escapeHtml(row.revokedAt?.slice(0, 10) ?? "")}. It no longer vouches for this card.</p>` : ""}
  <section class="sheet">
    <div class="grade" aria-label="Overall grade">
      <div class="overall">${formatGrade(row.overall)}</div>
      <div class="label">${gradeLabel(row.overall)}</div>
      <div class="subgrades">
        ${subgrades.map(([name, grade]) => `<div><b>${formatGrade(grade)}</b><span>${name}</span></div>`).join("\n        ")}
      </div>
    </div>
    <div>
      <h1>${escapeHtml(title)}</h1>
      ${declared ? `<p class="declared-note">The card was not identified: its details below are ${DECLARED_NOTE}.</p>` : ""}
      <dl>
        ${cardFacts
          .filter(([, fact]) => fact !== null)
          .map(
            ([name, fact]) =>
              `<dt>${name}</dt><dd>${escapeHtml(fact ?? "")}${declared ? ` <small class="declared">${DECLARED_NOTE}</small>` : ""}</dd>`,
          )
          .join("\n        ")}
        <dt>Centering (front)</dt><dd>${ratio(row.centeringHorizontal)} left/right · ${ratio(row.centeringVertical)} top/bottom</dd>
        <dt>Issued</dt><dd><time datetime="${escapeHtml(row.issuedAt)}">${issued}</time></dd>
        <dt>Status</dt><dd>${revoked ? "Revoked" : "Valid"}</dd>
      </dl>
      ${value}
      ${population ? `<p class="population">${populationText(population, row.overall)}</p>` : ""}
      <p class="meta">Graded by ${escapeHtml(row.pipelineGradedBy)} with ${escapeHtml(row.pipelineEngine)} (model ${escapeHtml(row.modelVersion)}), hosted on ${escapeHtml(row.pipelineHostedBy)}.</p>
    </div>
  </section>
  <section class="photos">
    ${photoFigure(row, described, images.front, "front")}
    ${photoFigure(row, described, images.back, "back")}
  </section>
  ${measuredSection(row)}
  ${verifySection({ ...extras.verify, number: row.number, revoked })}
  <footer>Check any certificate by its number at this address. The photos are the ones submitted for grading.</footer>
</main>
</body>
</html>
`;
}

/** "12 graded, 3 at this grade or higher": the live population of this catalog card. */
function populationText(population: CardPopulation, overall: number): string {
  const graded = `${population.total} graded`;
  return `<span>Population of this card</span> ${graded}, ${population.atOrAbove} at ${formatGrade(overall)} or higher <small>(live certificates of this catalog card)</small>`;
}

/** A photo; with evidence, the photo with the measured outline, frame and defects drawn over it. */
function photoFigure(row: CertificateRow, described: string, url: string, face: "front" | "back"): string {
  const caption = face === "front" ? "Front" : "Back";
  if (!row.evidence) {
    return `<figure><img src="${escapeHtml(url)}" alt="${escapeHtml(`${caption} of ${described}`)}" loading="lazy" width="400"><figcaption>${caption}</figcaption></figure>`;
  }
  const defects = [
    ...row.evidence.corners.defects,
    ...row.evidence.edges.defects,
    ...row.evidence.surface.defects,
  ].filter((d) => d.face === face);
  const label = `${caption} of ${described} with the measured outline, printed frame and ${defects.length} defect${defects.length === 1 ? "" : "s"} drawn over it`;
  return `<figure>${evidenceSvg(url, row.evidence.faces[face], defects, label)}<figcaption>${caption}</figcaption></figure>`;
}

/** "How this grade was measured": the legend and the measurements behind the subgrades. */
function measuredSection(row: CertificateRow): string {
  if (!row.evidence) return "";
  return `<section class="sheet measured">
    <div><h2>How this grade was measured</h2>
    <p class="legend">On the photos: <span style="color:#00a3d0">cyan</span> the card's detected outline, <span style="color:#d0208b">magenta</span> the printed frame the centering is measured from, boxes the defects found (red corners, orange edges, yellow scratches and creases).</p></div>
    <dl>
      ${evidenceFacts(row.evidence)
        .map(([name, fact]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(fact)}</dd>`)
        .join("\n      ")}
    </dl>
  </section>`;
}

export function renderNotFoundPage(number: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No such certificate</title><meta name="robots" content="noindex">
<style>body{font:16px/1.5 system-ui,sans-serif;color:#14213d;background:#f5f7fa;margin:0}main{max-width:640px;margin:0 auto;padding:48px 16px}</style>
</head><body><main><h1>No certificate ${escapeHtml(number)}</h1><p>There is no certificate with this number. Check the number on the label and try again.</p></main></body></html>
`;
}

/**
 * A 72 px high "graded by" badge: the grader and the certificate number on the left, the grade (or
 * REVOKED) in the middle, and a QR code of the certificate page on the right, so a photo of a
 * listing with the badge leads a buyer to the page and its signed attestation.
 */
export function renderBadge(row: CertificateRow, gradedBy: string, certificateUrl: string): string {
  const revoked = row.revokedAt !== null;
  const right = revoked ? "REVOKED" : `${formatGrade(row.overall)} ${gradeLabel(row.overall).toUpperCase()}`;
  const left = `GRADED BY ${gradedBy.toUpperCase()}`;
  const colour = revoked ? "#9aa4b2" : row.overall >= 9 ? "#0b6e4f" : row.overall >= 7 ? "#2e6fba" : "#b54708";
  const height = 72;
  // Widths from the text (about 7 px per character at 10–11 px bold, 9 px at 14 px) plus padding.
  const leftWidth = Math.max(110, left.length * 7 + 20);
  const rightWidth = Math.max(70, right.length * 9 + 20);
  const qrSide = height;
  const width = Math.round(leftWidth + rightWidth + qrSide);
  // The text a screen reader (and an embedding page's alt) reads names the card, marked when declared.
  const label = `${left}: ${right}, certificate ${row.number}, ${cardTitle(row)}`;
  // A quiet zone of two modules: the white square stands out against the coloured panels.
  const qr = qrSvgGroup(qrCode(certificateUrl), leftWidth + rightWidth, 0, qrSide, 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}">
<title>${escapeHtml(label)}</title>
<clipPath id="r"><rect width="${width}" height="${height}" rx="6"/></clipPath>
<g clip-path="url(#r)">
<rect width="${leftWidth}" height="${height}" fill="#14213d"/>
<rect x="${leftWidth}" width="${rightWidth}" height="${height}" fill="${colour}"/>
<g shape-rendering="crispEdges">${qr}</g>
</g>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-weight="700" text-anchor="middle">
<text x="${leftWidth / 2}" y="30" font-size="10">${escapeHtml(left)}</text>
<text x="${leftWidth / 2}" y="50" font-size="12" fill-opacity=".8">No. ${row.number}</text>
<text x="${leftWidth + rightWidth / 2}" y="41" font-size="14">${escapeHtml(right)}</text>
</g>
</svg>
`;
}
