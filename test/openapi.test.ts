import { describe, expect, it } from "vitest";
import { call, type Json } from "./helpers/request";

const partnerOperations = [
  ["get", "/v1/account"],
  ["get", "/v1/gradings"],
  ["get", "/v1/gradings/{id}"],
  ["get", "/v1/cards"],
  ["get", "/v1/cards/{user_card_id}"],
  ["get", "/v1/webhook-targets"],
  ["post", "/v1/webhook-targets"],
  ["delete", "/v1/webhook-targets/{id}"],
] as const;

/** Every property of every component schema, with its path, for the documentation checks. */
function properties(schema: Json, path: string, out: { path: string; schema: Json }[] = []) {
  for (const [name, property] of Object.entries<Json>(schema?.properties ?? {})) {
    out.push({ path: `${path}.${name}`, schema: property });
    properties(property, `${path}.${name}`, out);
    if (property.items) properties(property.items, `${path}.${name}[]`, out);
  }
  return out;
}

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document listing every Partner API operation with its errors", async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.components.securitySchemes.partnerKey).toMatchObject({ type: "http", scheme: "bearer" });
    for (const [method, path] of partnerOperations) {
      const operation = res.body.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary, `${method} ${path}`).toBeTruthy();
      expect(operation.security).toEqual([{ partnerKey: [] }]);
      for (const status of ["400", "401", "404", "429", "500"]) {
        expect(operation.responses[status], `${method} ${path} ${status}`).toBeDefined();
      }
      for (const parameter of operation.parameters ?? []) {
        expect(parameter.schema?.description ?? parameter.description, `${path} ${parameter.name}`).toBeTruthy();
      }
    }
    expect(res.body.paths["/health"].get).toBeDefined();
  });

  // /health and the JWKS take no input and no key: no client error is possible.
  const NO_CLIENT_ERRORS = new Set(["/health", "/.well-known/jwks.json"]);

  it("every operation but /health and the JWKS documents its 4xx responses, and every operation has an operationId, a description and security", async () => {
    for (const document of ["/openapi.json", "/api/public/v1/openapi.json"]) {
      const res = await call(document);
      const missing: string[] = [];
      const operations = [
        ...Object.entries<Json>(res.body.paths ?? {}),
        ...Object.entries<Json>(res.body.webhooks ?? {}),
      ].flatMap(([path, item]) =>
        Object.entries<Json>(item).map(([method, operation]) => ({ path, method, operation })),
      );
      expect(operations.length).toBeGreaterThan(2);
      for (const { path, method, operation } of operations) {
        const name = `${document} ${method} ${path}`;
        if (!operation.operationId) missing.push(`${name}: operationId`);
        if (!operation.description) missing.push(`${name}: description`);
        if (!Array.isArray(operation.security)) missing.push(`${name}: security`);
        const has4xx = Object.keys(operation.responses ?? {}).some((status) => status.startsWith("4"));
        if (!NO_CLIENT_ERRORS.has(path) && !has4xx) missing.push(`${name}: 4xx`);
      }
      expect(missing).toEqual([]);
      expect(res.body.info.license).toMatchObject({ identifier: "LicenseRef-Proprietary" });
      expect(res.body.info.contact.url).toBe("https://api.test/docs");
      expect(res.body.tags.length).toBeGreaterThan(0);
      for (const tag of res.body.tags) expect(tag.description, tag.name).not.toBe(tag.name);
    }
  });

  // Spectral's `oas` ruleset (array-items) and OpenAPI 3.0-era code generators need `items` on every
  // array schema; a tuple's `prefixItems` alone fails them and leaves the length open.
  it("gives every array schema its items and no tuple's prefixItems, in both documents", async () => {
    for (const document of ["/openapi.json", "/api/public/v1/openapi.json"]) {
      const res = await call(document);
      const arrays: string[] = [];
      const faults: string[] = [];
      const walk = (node: Json, path: string) => {
        if (Array.isArray(node)) {
          for (const [k, child] of node.entries()) walk(child, `${path}[${k}]`);
        } else if (node && typeof node === "object") {
          const types = Array.isArray(node.type) ? node.type : [node.type];
          if (types.includes("array")) {
            arrays.push(path);
            if (node.items === undefined) faults.push(`${path}: no items`);
          }
          if (node.prefixItems !== undefined) faults.push(`${path}: prefixItems`);
          for (const [key, child] of Object.entries<Json>(node)) if (key !== "example") walk(child, `${path}.${key}`);
        }
      };
      walk(res.body, document);
      expect(arrays.length, document).toBeGreaterThan(3);
      expect(faults).toEqual([]);
    }
    // The evidence's points and lines keep their lengths as minItems and maxItems.
    const pub = await call("/api/public/v1/openapi.json");
    const corners = pub.body.components.schemas.FaceEvidence.properties.corners;
    expect(corners).toMatchObject({ minItems: 4, maxItems: 4, items: { minItems: 2, maxItems: 2 } });
  });

  it("emits regex patterns without JavaScript flags (valid JSON Schema)", async () => {
    const res = await call("/openapi.json");
    const patterns = [...res.text.matchAll(/"pattern":"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? "");
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(pattern, pattern).not.toMatch(/\/[a-z]*$/);
    const id = res.body.paths["/v1/gradings/{id}"].get.parameters[0].schema;
    expect(new RegExp(id.pattern).test("0B5F8A3C-2D7E-4C1A-9F6B-3E8D2A1C7B90")).toBe(true);
  });

  it("describes or exemplifies every field of every schema", async () => {
    const res = await call("/openapi.json");
    const undocumented: string[] = [];
    for (const [name, schema] of Object.entries<Json>(res.body.components.schemas)) {
      for (const { path, schema: property } of properties(schema, name)) {
        const documented =
          property.description !== undefined ||
          property.example !== undefined ||
          property.$ref !== undefined ||
          property.type === "object";
        if (!documented) undocumented.push(path);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it("serves a browsable reference at /docs", async () => {
    const res = await call("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain("/openapi.json");
  });
});
