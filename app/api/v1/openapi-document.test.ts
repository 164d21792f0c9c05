import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { listRouteFiles } from "../testing/route-files";
import { buildOpenApiDocument } from "./openapi-document";
import { statusOfCode } from "./openapi-error-codes";
import { API_OPERATIONS } from "./openapi-operations";
import { publishedRunBodySchema } from "./schemas";

const V1 = path.join(__dirname);

/** Every route.ts under app/api/v1 as its OpenAPI path (`[slug]` → `{slug}`). */
function routeFiles(): string[] {
  return listRouteFiles(V1, "/api/v1").map((route) => route.path.replace(/\[([^\]]+)\]/g, "{$1}"));
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("the OpenAPI document of /api/v1", () => {
  const document = buildOpenApiDocument() as {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        {
          responses: Record<string, { description: string; "x-error-codes"?: string[] }>;
          requestBody?: { content: Record<string, { schema: unknown }> };
        }
      >
    >;
    components: { schemas: Record<string, unknown> };
  };

  it("is OpenAPI 3.1", () => {
    expect(document.openapi).toBe("3.1.0");
  });

  it("is valid against the official OpenAPI 3.1 schema, which refuses a broken copy", async () => {
    // What generators and linters outside check first (the schemas the OpenAPI Initiative publishes).
    const validate = async (candidate: unknown) =>
      new Validator().validate(structuredClone(candidate) as Parameters<Validator["validate"]>[0]);
    const result = await validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    // The check is a real one: a response without its required description fails it.
    const broken = structuredClone(document);
    const run = broken.paths["/api/v1/workflows/{slug}/run"]?.post?.responses["200"] as { description?: string };
    delete run.description;
    expect((await validate(broken)).valid).toBe(false);
  });

  it("has schemas that are valid JSON Schema 2020-12 and references that all resolve", () => {
    // The OpenAPI schema does not look inside schema objects: the 2020-12 meta-schema does.
    const ajv = new Ajv2020({ strict: false });
    const schemas: [string, unknown][] = [];
    const references: string[] = [];
    // Arrays too: their entries are walked by index.
    const walk = (value: unknown, at: string, inSchema: boolean) => {
      if (typeof value !== "object" || value === null) return;
      for (const [key, child] of Object.entries(value)) {
        if (key === "$ref" && typeof child === "string") references.push(child);
        const isSchema = !inSchema && key === "schema";
        if (isSchema) schemas.push([`${at}/schema`, child]);
        walk(child, `${at}/${key}`, inSchema || isSchema);
      }
    };
    walk(document.paths, "#/paths", false);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      schemas.push([`#/components/schemas/${name}`, schema]);
      walk(schema, `#/components/schemas/${name}`, true);
    }
    expect(schemas.length).toBeGreaterThan(20);
    const invalid = schemas
      .filter(([, schema]) => !ajv.validateSchema(schema as object))
      .map(([where]) => `${where}: ${ajv.errorsText()}`);
    expect(invalid).toEqual([]);
    expect(ajv.validateSchema({ type: "strng" })).toBe(false);
    const resolve = (pointer: string) =>
      pointer
        .slice(2)
        .split("/")
        .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
    expect(references.length).toBeGreaterThan(10);
    expect(references.filter((reference) => !reference.startsWith("#/") || resolve(reference) === undefined)).toEqual(
      [],
    );
  });

  it("has every /api/v1 route file, with each method the route really serves", async () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      expect(document.paths, `${file} is documented`).toHaveProperty([file]);
      const folder = file.replace("/api/v1", "").replace(/\{([^}]+)\}/g, "[$1]");
      const module = (await import(`.${folder}/route`)) as Record<
        string,
        (request: Request, context: unknown) => Promise<Response>
      >;
      for (const method of METHODS) {
        const handler = module[method];
        if (!handler) continue;
        const response = await handler(new Request(`http://localhost${file}`, { method }), {
          params: Promise.resolve({ slug: "x", runId: "x" }),
        });
        const served = response.status !== 405;
        expect(Boolean(document.paths[file]?.[method.toLowerCase()]), `${method} ${file}`).toBe(served);
      }
    }
    // And nothing documented that has no route file.
    expect(Object.keys(document.paths).sort()).toEqual([...files].sort());
  });

  it("lists every error code with its status, including the common ones", () => {
    const run = document.paths["/api/v1/workflows/{slug}/run"]?.post;
    const codes = Object.entries(run?.responses ?? {}).flatMap(([status, answer]) =>
      (answer["x-error-codes"] ?? []).map((code) => [code, Number(status)]),
    );
    expect(codes).toEqual(
      expect.arrayContaining([
        ["unauthorized", 401],
        ["rate_limited", 429],
        ["invalid_request", 400],
        ["request_too_large", 413],
        ["unsupported_media_type", 415],
        ["workflow_not_found", 404],
        ["workflow_not_published", 409],
        ["invalid_input", 422],
        ["idempotency_key_reused", 422],
        ["method_not_allowed", 405],
        ["internal_error", 500],
      ]),
    );
    for (const operation of API_OPERATIONS) {
      for (const code of operation.errors) expect(statusOfCode(code)).toBeGreaterThanOrEqual(400);
    }
  });

  it("says what every listed error code means", () => {
    const unexplained = new Set<string>();
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const answer of Object.values(operation.responses ?? {})) {
          const lines = answer.description.split("\n");
          for (const code of answer["x-error-codes"] ?? []) {
            const line = lines.find((text) => text.startsWith(`\`${code}\`:`));
            if (!line || line.trim() === `\`${code}\`:`) unexplained.add(code);
          }
        }
      }
    }
    expect([...unexplained]).toEqual([]);
  });

  it("request bodies are the routes' own zod schemas, converted", () => {
    const schema = document.paths["/api/v1/workflows/{slug}/run"]?.post?.requestBody?.content["application/json"]
      ?.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(publishedRunBodySchema.shape).sort());
    expect(JSON.stringify(document)).not.toContain("#/$defs/");
    expect(document.components.schemas).toHaveProperty("Error");
    expect(document.components.schemas).toHaveProperty("RunAnswer");
  });
});
