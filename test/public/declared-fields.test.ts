// Declared is not verified: card fields from the submitter's hints are marked wherever they show,
// and hints or references that could disguise text (control and bidi-override characters) are refused.
import { describe, expect, it } from "vitest";
import { createCertificate, createPublicClient } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";
import { callPublic, jsonSubmission, rawPair } from "../helpers/submissions";

describe("control and bidirectional-override characters", { timeout: 30_000 }, () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["a right-to-left override in a hint", { card: { player: "Ohtani\u202Egpj.exe" } }, "json.card.player"],
    ["a first-strong isolate in a hint", { card: { brand: "\u2068Topps" } }, "json.card.brand"],
    ["a newline in external_ref", { external_ref: "order-1\nforged log line" }, "json.external_ref"],
    ["a NUL in external_ref", { external_ref: "order\u0000-1" }, "json.external_ref"],
  ];
  for (const [name, extra, field] of cases) {
    it(`refuses ${name} with 400 naming ${field}`, async () => {
      const client = await createPublicClient();
      const res = await callPublic("/gradings", client.key, { body: jsonSubmission(rawPair(), extra) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.details).toContainEqual({
        path: field,
        message: "must not contain control or bidirectional-override characters",
      });
    });
  }

  it("refuses them in a form's external_ref too (400, form.external_ref)", async () => {
    const client = await createPublicClient();
    const pair = rawPair();
    const form = new FormData();
    form.set("front_image", new Blob([pair.front], { type: "image/jpeg" }), "front.jpg");
    form.set("back_image", new Blob([pair.back], { type: "image/jpeg" }), "back.jpg");
    form.set("external_ref", "ref\u202Dx");
    const res = await callPublic("/gradings", client.key, { body: form });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({
      path: "form.external_ref",
      message: "must not contain control or bidirectional-override characters",
    });
  });

  it("accepts accented and non-Latin names (201)", async () => {
    const client = await createPublicClient();
    const res = await callPublic("/gradings", client.key, {
      body: jsonSubmission(rawPair(), { card: { player: "Ronald Acuña Jr.", brand: "カルビー" } }),
    });
    expect(res.status).toBe(201);
    expect(res.body.certificate.card).toMatchObject({ player: "Ronald Acuña Jr.", verified: false, source: "hints" });
  });
});

describe("declared card fields on the certificate", () => {
  it("the page labels every declared field and says the card was not identified", async () => {
    const cert = await createCertificate({ cardSource: "hints", player: "Rookie Nobody" });
    const res = await callWithEnv(`/c/${cert.number}`, {});
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '<dd>Rookie Nobody <small class="declared">declared by the submitter, not verified</small></dd>',
    );
    expect(res.text).toContain("its details below are declared by the submitter, not verified");
    expect(res.text).toContain('alt="Front of 2018 Topps Rookie Nobody (declared by the submitter, not verified)"');
  });

  it("an identified card's page carries no such label", async () => {
    const cert = await createCertificate();
    const res = await callWithEnv(`/c/${cert.number}`, {});
    expect(res.text).not.toContain("declared by the submitter");
    expect(res.text).toContain('alt="Front of 2018 Topps Shohei Ohtani"');
  });

  it("the badge's accessible text names the card and marks it declared", async () => {
    const cert = await createCertificate({ cardSource: "hints" });
    const res = await call(`/c/${cert.number}/badge.svg`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      `aria-label="GRADED BY SVC GRADING: 9 MINT, certificate ${cert.number}, 2018 Topps Shohei Ohtani (declared by the submitter, not verified)"`,
    );
  });

  it("the API marks the card and always gives the value's basis", async () => {
    const client = await createPublicClient();
    const cert = await createCertificate({ cardSource: "hints", valueBasis: "comparables", valueConfidence: "low" });
    const res = await callPublic(`/certificates/${cert.number}`, client.key);
    expect(res.status).toBe(200);
    expect(res.body.certificate.card).toMatchObject({ verified: false, source: "hints" });
    expect(res.body.certificate.estimated_value).toEqual({
      currency: "USD",
      low: 127.5,
      mid: 150,
      high: 172.5,
      confidence: "low",
      basis: "comparables",
    });
  });
});
