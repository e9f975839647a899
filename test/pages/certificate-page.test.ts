import { describe, expect, it } from "vitest";
import type { FaceEvidence, GradeEvidence } from "../../src/grading/engine/evidence";
import { cardToPhoto, evidenceFacts } from "../../src/pages/evidence-overlay";
import { gradeLabel } from "../../src/pages/render";
import { createCertificate } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };

describe("GET /c/{number}", () => {
  it("renders the certificate for people: grade, subgrades, centering, card, photos, issue date", async () => {
    const cert = await createCertificate({ overall: 9.5, centering: 10, corners: 9.5, edges: 9, surface: 9.5 });
    const res = await callWithEnv(`/c/${cert.number}`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("x-cache")).toBe("MISS");
    const html = res.text;
    expect(html).toContain(`No. ${cert.number}`);
    expect(html).toContain('<div class="overall">9.5</div>');
    expect(html).toContain("Mint+");
    expect(html).toContain("<b>10</b><span>Centering</span>");
    expect(html).toContain("<b>9</b><span>Edges</span>");
    // Stored offsets +3.2 / −1.5 → 53/47 left/right, 49/51 top/bottom (rounded).
    expect(html).toContain("53/47 left/right · 49/51 top/bottom");
    expect(html).toContain("<dd>Shohei Ohtani</dd>");
    expect(html).toContain("Status</dt><dd>Valid");
    expect(html).toMatch(
      /<img src="https:\/\/api\.test\/files\/certificates\/[^"]+front\.jpg\?[^"]*X-Amz-Expires=7200/,
    );
    expect(html).not.toContain("revoked on");
  });

  it("draws how the grade was measured over the photos: outline, frame lines, defects, area examined", async () => {
    const face: FaceEvidence = {
      image_size: { width: 1200, height: 900 },
      corners: [
        [370, 130],
        [820, 130],
        [820, 760],
        [370, 760],
      ],
      orientation: "portrait",
      format: { id: "standard", width_mm: 63, height_mm: 88 },
      px_per_mm: 7.14,
      frame_lines: {
        left: [
          [395, 155],
          [395, 735],
        ],
        right: [
          [797, 155],
          [797, 735],
        ],
        top: [
          [395, 155],
          [797, 155],
        ],
        bottom: [
          [395, 735],
          [797, 735],
        ],
      },
      borders_mm: { left: 3.5, right: 3.2, top: 3.5, bottom: 3.5 },
    };
    const evidence: GradeEvidence = {
      version: 1,
      faces: { front: face, back: { ...face, frame_lines: null, borders_mm: null } },
      centering: {
        face: "front",
        horizontal_offset: 2.2,
        vertical_offset: 0,
        margin_to_next_grade: 2.8,
        agreement: 0.1,
        print_size: {
          frame_mm: { width: 56.3, height: 81 },
          catalog_print_mm: { width: 56.25, height: 81.1 },
          verdict: "same",
        },
      },
      corners: {
        examined_share: 0.97,
        examined_mm2: 101,
        defects: [
          {
            type: "whitening",
            face: "front",
            location: "top_left_corner",
            box_mm: { x: 0.3, y: 0.3, width: 2.5, height: 2.5 },
            area_mm2: 3.1,
            length_mm: null,
          },
        ],
      },
      edges: { examined_share: 1, examined_mm2: 540, defects: [] },
      surface: { examined_share: 0.42, examined_mm2: 4400, defects: [] },
    };
    const cert = await createCertificate({ evidence });
    const html = (await callWithEnv(`/c/${cert.number}`, {})).text;
    expect(html).toContain('<svg class="evidence" viewBox="0 0 1200 900"');
    expect(html).toContain('<polygon points="370,130 820,130 820,760 370,760" class="outline"/>');
    expect(html).toContain('<line x1="395" y1="155" x2="395" y2="735" class="frame"/>');
    // The defect's box, 0.3–2.8 mm from the top-left corner, placed between the card's corners.
    const [x, y] = cardToPhoto(face, 0.3, 0.3);
    expect(html).toContain(`<polygon points="${x},${y} `);
    expect(html).toContain("<title>whitening, top left corner, 3.1 mm²</title>");
    // The back has no frame lines: its outline only.
    expect(html.match(/class="frame"/g)).toHaveLength(4);
    expect(html).toContain("How this grade was measured");
    expect(html).toContain("<dt>Borders (front)</dt><dd>left 3.5 mm · right 3.2 mm · top 3.5 mm · bottom 3.5 mm</dd>");
    // A front read past a collector bar says so beside its borders.
    const barred = evidenceFacts({ ...evidence, faces: { ...evidence.faces, front: { ...face, bar: "bottom" } } });
    expect(barred).toContainEqual([
      "Borders (front)",
      "left 3.5 mm · right 3.2 mm · top 3.5 mm · bottom 3.5 mm (the bottom is a collector bar, wider by design: top to bottom is the top border against the left and right borders' mean)",
    ]);
    expect(html).toContain("<dd>2.8 points from the next centering grade</dd>");
    expect(html).toContain("<dd>56.3 × 81.0 mm; the catalog&#39;s print 56.3 × 81.1 mm</dd>");
    expect(html).toContain("<dt>Corners</dt><dd>1 defect found; 97 % of the area examined (101 mm²)</dd>");
    expect(html).toContain("<dt>Surface</dt><dd>no defects found; 42 % of the area examined (4400 mm²)</dd>");
  });

  it("shows plain photos for a certificate without evidence", async () => {
    const cert = await createCertificate({ evidence: null });
    const html = (await callWithEnv(`/c/${cert.number}`, {})).text;
    expect(html).not.toContain('<svg class="evidence"');
    expect(html).not.toContain("How this grade was measured");
    expect(html).toContain('alt="Front of 2018 Topps Shohei Ohtani"');
  });

  it("is served from the edge cache on the next request", async () => {
    const cert = await createCertificate();
    expect((await callWithEnv(`/c/${cert.number}`, {})).headers.get("x-cache")).toBe("MISS");
    const again = await call(`/c/${cert.number}`);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.text).toContain(`No. ${cert.number}`);
  });

  it("escapes card text", async () => {
    const cert = await createCertificate({ player: '<script>alert("x")</script>', brand: "A & B" });
    const res = await callWithEnv(`/c/${cert.number}`, {});
    expect(res.text).not.toContain("<script>alert");
    expect(res.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(res.text).toContain("A &amp; B");
  });

  it("answers 404 (not cached) for an unknown or malformed number", async () => {
    for (const number of ["1234567897", "12345", "abc"]) {
      const res = await call(`/c/${number}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.text).toContain("No certificate");
    }
  });
});

describe("GET /c/{number}/badge.svg", () => {
  it("draws the grade and is cached", async () => {
    const cert = await createCertificate({ overall: 8 });
    const res = await callWithEnv(`/c/${cert.number}/badge.svg`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.text).toContain("GRADED BY SVC GRADING");
    expect(res.text).toContain(">8 NM-MT</text>");
    expect((await call(`/c/${cert.number}/badge.svg`)).headers.get("x-cache")).toBe("HIT");
  });
});

describe("revocation", () => {
  it("purges the cached page and badge; both then show the revoked state", async () => {
    const cert = await createCertificate();
    await callWithEnv(`/c/${cert.number}`, {});
    await callWithEnv(`/c/${cert.number}/badge.svg`, {});
    expect((await call(`/c/${cert.number}`)).headers.get("x-cache")).toBe("HIT");

    const revoked = await callWithEnv(
      `/admin/v1/certificates/${cert.number}/revoke`,
      {},
      { method: "POST", headers: ADMIN },
    );
    expect(revoked.status).toBe(200);

    const page = await callWithEnv(`/c/${cert.number}`, {});
    expect(page.headers.get("x-cache")).toBe("MISS");
    expect(page.text).toContain("This certificate was revoked on");
    expect(page.text).toContain("Status</dt><dd>Revoked");
    expect(page.text).toContain('<meta name="robots" content="noindex">');
    const badge = await callWithEnv(`/c/${cert.number}/badge.svg`, {});
    expect(badge.text).toContain(">REVOKED</text>");
  });
});

describe("gradeLabel", () => {
  it("names each half point the way graders print it", () => {
    expect([10, 9.5, 9, 8.5, 8, 7.5, 7, 6, 5, 4, 3, 2, 1].map(gradeLabel)).toEqual([
      "Gem Mint",
      "Mint+",
      "Mint",
      "NM-MT+",
      "NM-MT",
      "Near Mint",
      "Near Mint",
      "EX-MT",
      "Excellent",
      "VG-EX",
      "Very Good",
      "Good",
      "Poor",
    ]);
  });
});
