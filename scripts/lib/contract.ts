// Holds real responses against the OpenAPI documents the server serves: finds the documented
// operation of a request (method and path template, under the document's server path), then checks
// that the status is documented and that the body matches the documented schema of its media type,
// with Ajv's JSON Schema 2020-12 validator (OpenAPI 3.1's dialect), $refs resolved in the document.
// Nothing is frozen here: whatever the server documents is what its answers are held to.

import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";

type Json = Record<string, unknown>;

interface LoadedDocument {
  name: string;
  document: Json;
  /** The path part of the document's first server URL ("" or "/api/public/v1"). */
  prefix: string;
  templates: { template: string; pattern: RegExp; literal: number }[];
}

export interface Verdict {
  /** "validated": documented and valid; "mismatch": documented and not valid; "undocumented": no operation. */
  kind: "validated" | "mismatch" | "undocumented";
  operation: string;
  problems: string[];
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

export class ContractValidator {
  private readonly documents: LoadedDocument[] = [];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    // ajv-formats is CommonJS; under Node's ESM loader its function is the default export.
    const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;
    addFormats(this.ajv);
    // OpenAPI's own formats for bodies that are not JSON (file uploads, int types).
    for (const format of ["binary", "byte", "int32", "int64", "float", "double"]) this.ajv.addFormat(format, true);
  }

  /** Adds a served document (its name is used in messages and as its schema id). */
  add(name: string, document: Json): void {
    const servers = (document.servers as { url: string }[] | undefined) ?? [];
    const prefix = servers[0] ? new URL(servers[0].url).pathname.replace(/\/$/, "") : "";
    const paths = (document.paths as Json | undefined) ?? {};
    const templates = Object.keys(paths).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/(\{[^}]+\})/)
          .map((part) => (part.startsWith("{") ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
          .join("")}$`,
      ),
      // A literal segment beats a parameter: /v1/gradings before /v1/{anything}.
      literal: template.replace(/\{[^}]+\}/g, "").length,
    }));
    templates.sort((a, b) => b.literal - a.literal);
    this.ajv.addSchema(document, name);
    this.documents.push({ name, document, prefix, templates });
    // The longest prefix is tried first: /api/public/v1/… belongs to the public document.
    this.documents.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The document and operation a request is described by, if any. */
  private find(method: string, pathname: string) {
    for (const loaded of this.documents) {
      if (loaded.prefix && !pathname.startsWith(`${loaded.prefix}/`)) continue;
      const rest = pathname.slice(loaded.prefix.length) || "/";
      for (const { template, pattern } of loaded.templates) {
        if (!pattern.test(rest)) continue;
        const item = (loaded.document.paths as Record<string, Json>)[template];
        const operation = item?.[method.toLowerCase()] as Json | undefined;
        if (operation && HTTP_METHODS.has(method.toLowerCase())) return { loaded, template, operation };
      }
    }
    return null;
  }

  private validator(document: string, pointer: string): ValidateFunction {
    const ref = `${document}#${pointer}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** Checks one response: its status is documented and its body matches the documented schema. */
  check(method: string, url: string, status: number, contentType: string | null, body: string): Verdict {
    const { pathname } = new URL(url);
    const found = this.find(method, pathname);
    const name = `${method.toUpperCase()} ${pathname} → ${status}`;
    if (!found) return { kind: "undocumented", operation: name, problems: [] };
    const { loaded, template, operation } = found;
    const label = `${loaded.name}: ${method.toUpperCase()} ${template} → ${status}`;
    const responses = (operation.responses as Record<string, Json> | undefined) ?? {};
    const statusKey = [String(status), `${String(status)[0]}XX`, "default"].find((key) => key in responses);
    if (!statusKey) return { kind: "mismatch", operation: label, problems: [`status ${status} is not documented`] };
    const response = responses[statusKey] as Json;
    const content = response.content as Record<string, Json> | undefined;
    if (!content || body.length === 0) {
      if (content && body.length === 0 && status !== 304 && method.toUpperCase() !== "HEAD") {
        return { kind: "mismatch", operation: label, problems: ["the body is empty but the document describes one"] };
      }
      if (!content && body.length > 0) {
        return { kind: "mismatch", operation: label, problems: ["a body was sent where the document describes none"] };
      }
      return { kind: "validated", operation: label, problems: [] };
    }
    const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!(mediaType in content)) {
      return {
        kind: "mismatch",
        operation: label,
        problems: [`media type ${mediaType || "(none)"} is not documented (${Object.keys(content).join(", ")})`],
      };
    }
    if (!(content[mediaType] as Json).schema) return { kind: "validated", operation: label, problems: [] };
    let value: unknown = body;
    if (mediaType.endsWith("json")) {
      try {
        value = JSON.parse(body);
      } catch {
        return { kind: "mismatch", operation: label, problems: ["the body is not JSON"] };
      }
    }
    const pointer = [
      "",
      "paths",
      template,
      method.toLowerCase(),
      "responses",
      statusKey,
      "content",
      mediaType,
      "schema",
    ]
      .map((segment) => encodeURIComponent(escapePointer(segment)))
      .join("/");
    const validate = this.validator(loaded.name, pointer);
    if (validate(value)) return { kind: "validated", operation: label, problems: [] };
    return {
      kind: "mismatch",
      operation: label,
      problems: (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`),
    };
  }
}

/** Fetches the served documents: the combined one and the Public API's own. */
export async function loadServedDocuments(base: string): Promise<{ name: string; url: string; document: Json }[]> {
  const urls = [
    ["partner", `${base}/openapi.json`],
    ["public", `${base}/api/public/v1/openapi.json`],
  ] as const;
  return Promise.all(
    urls.map(async ([name, url]) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return { name, url, document: (await response.json()) as Json };
    }),
  );
}

export async function contractValidator(base: string) {
  const documents = await loadServedDocuments(base);
  const validator = new ContractValidator();
  for (const { name, document } of documents) validator.add(name, document);
  return { validator, documents };
}

/**
 * fetch, tried once more when the server closed an idle kept-alive connection under it (wrangler dev
 * does): the request never reached the handler, so sending it again is safe.
 */
export async function fetchOnce(request: Request): Promise<Response> {
  const spare = request.clone();
  try {
    return await fetch(request);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === "UND_ERR_SOCKET" || code === "EPIPE" || code === "ECONNRESET") return fetch(spare);
    throw error;
  }
}
