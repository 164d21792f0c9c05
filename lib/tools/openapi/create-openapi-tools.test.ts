import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer, testContext } from "../test-support/local-server";
import { createOpenApiTools } from "./create-openapi-tools";
import { OpenApiSpecError } from "./openapi-spec-error";

const petstoreYaml = `
openapi: 3.0.3
info: { title: Petstore, version: "1.0" }
servers:
  - url: https://petstore.example.com/{base}
    variables: { base: { default: v1 } }
components:
  securitySchemes:
    petKey: { type: apiKey, in: header, name: X-API-Key }
  parameters:
    PetId: { name: petId, in: path, required: true, schema: { type: integer, minimum: 1 }, description: The pet's ID }
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        tag: { type: string, nullable: true }
        age: { type: number, minimum: 0, exclusiveMinimum: true }
        parent: { $ref: "#/components/schemas/NewPet" }
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      parameters:
        - { name: limit, in: query, schema: { type: integer, maximum: 100 } }
        - { name: tags, in: query, schema: { type: array, items: { type: string } } }
        - { name: X-Request-Id, in: header, schema: { type: string } }
        - { name: session, in: cookie, schema: { type: string } }
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/NewPet" }
  /pets/{petId}:
    parameters:
      - $ref: "#/components/parameters/PetId"
    get:
      summary: Get one pet
    delete:
      operationId: delete pet!
`;

describe("OpenAPI import", () => {
  let server: LocalServer;
  const seen: Array<{
    method?: string;
    url?: string;
    apiKey?: string;
    authorization?: string;
    requestId?: string;
    body: string;
  }> = [];
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        seen.push({
          method: request.method,
          url: request.url,
          apiKey: request.headers["x-api-key"] as string | undefined,
          authorization: request.headers.authorization,
          requestId: request.headers["x-request-id"] as string | undefined,
          body,
        });
        if (request.url?.includes("/pets/404")) {
          response.writeHead(404, { "content-type": "application/json" }).end('{"message":"no such pet"}');
          return;
        }
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ ok: true, path: request.url }));
      });
    });
  });
  afterAll(() => server.close());

  const tools = () =>
    createOpenApiTools({
      document: petstoreYaml,
      label: "Petstore",
      serverUrl: `${server.origin}/v1`,
      allowlist: [server.hostPort],
      readOnly: "safe-methods",
    });

  it("creates one tool per operation with sanitized names and merged schemas", () => {
    const list = tools();
    expect(list.map((tool) => tool.name)).toEqual(["listPets", "createPet", "get_pets_petId", "delete_pet"]);
    const listPets = list[0];
    expect(listPets.parameters).toEqual({
      type: "object",
      properties: {
        limit: { type: "integer", maximum: 100 },
        tags: { type: "array", items: { type: "string" } },
        "X-Request-Id": { type: "string" },
      },
    });
    expect(listPets.readOnly).toBe(true);
    expect(list[1].readOnly).toBe(false);
    expect(listPets.source).toMatchObject({
      kind: "openapi",
      label: "Petstore",
      annotations: { method: "GET", path: "/pets" },
    });
    const body = (list[1].parameters.properties as Record<string, Record<string, unknown>>).body;
    expect(body).toMatchObject({
      type: "object",
      required: ["name"],
      properties: { tag: { type: ["string", "null"] }, age: { exclusiveMinimum: 0 }, parent: { type: "object" } },
    });
    expect(list[2].parameters).toMatchObject({
      required: ["petId"],
      properties: { petId: { type: "integer", description: "The pet's ID" } },
    });
  });

  it("calls the API with path, query, header, body and the API key from credentials", async () => {
    const [listPets, createPet, getPet] = tools();
    const credentials = { petKey: "secret-key" };
    const listed = await listPets.execute(
      { limit: 2, tags: ["a", "b"], "X-Request-Id": "r1" },
      testContext({ credentials }),
    );
    expect(listed).toMatchObject({
      ok: true,
      content: { status: 200, body: { path: "/v1/pets?limit=2&tags=a&tags=b" } },
    });
    expect(seen.at(-1)).toMatchObject({ method: "GET", apiKey: "secret-key", requestId: "r1" });
    const created = await createPet.execute({ body: { name: "Rex", tag: null } }, testContext({ credentials }));
    expect(created.ok).toBe(true);
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v1/pets", body: '{"name":"Rex","tag":null}' });
    expect(await getPet.execute({ petId: 7 }, testContext({ credentials }))).toMatchObject({
      ok: true,
      content: { body: { path: "/v1/pets/7" } },
    });
  });

  it("validates arguments against the generated schema", async () => {
    const [, createPet, getPet] = tools();
    expect(await getPet.execute({ petId: 0 }, testContext({ credentials: { petKey: "k" } }))).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments", message: expect.stringContaining("arguments/petId must be >= 1") },
    });
    expect(await createPet.execute({}, testContext())).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
  });

  it("reports a missing credential and API errors", async () => {
    const [, , getPet] = tools();
    expect(await getPet.execute({ petId: 1 }, testContext())).toMatchObject({
      ok: false,
      error: { code: "missing_credential" },
    });
    expect(await getPet.execute({ petId: 404 }, testContext({ credentials: { petKey: "k" } }))).toMatchObject({
      ok: false,
      error: { code: "upstream_error", message: expect.stringContaining("404") },
      retryable: false,
    });
  });

  it("supports OpenAPI 3.1 JSON with bearer auth and keeps API keys out of provenance", async () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "Search", version: "1" },
      servers: [{ url: `${server.origin}/api` }],
      paths: {
        "/search": {
          get: {
            operationId: "search",
            parameters: [{ name: "q", in: "query", required: true, schema: { type: ["string"] } }],
          },
        },
      },
    };
    const [bearer] = createOpenApiTools({
      document,
      label: "Search",
      auth: { type: "bearer", credential: "token" },
      allowlist: [server.hostPort],
    });
    expect(await bearer.execute({ q: "rain" }, testContext({ credentials: { token: "t0k" } }))).toMatchObject({
      ok: true,
    });
    expect(seen.at(-1)).toMatchObject({ url: "/api/search?q=rain", authorization: "Bearer t0k" });

    const [queryKey] = createOpenApiTools({
      document: JSON.stringify(document),
      label: "Search",
      toolNamePrefix: "s_",
      auth: { type: "apiKey", in: "query", name: "api_key", credential: "key" },
      allowlist: [server.hostPort],
    });
    expect(queryKey.name).toBe("s_search");
    const result = await queryKey.execute({ q: "x" }, testContext({ credentials: { key: "hunter2" } }));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.provenance.source).toContain("api_key=REDACTED");
    expect(JSON.stringify(result.provenance)).not.toContain("hunter2");
  });

  it("goes through the SSRF guard", async () => {
    const [listPets] = createOpenApiTools({
      document: petstoreYaml,
      label: "Petstore",
      serverUrl: `${server.origin}/v1`,
    });
    expect(await listPets.execute({}, testContext({ credentials: { petKey: "k" } }))).toMatchObject({
      ok: false,
      error: { code: "ssrf_blocked" },
    });
  });

  it.each([
    ["not yaml: [", "(document): not valid JSON or YAML"],
    ['{"swagger": "2.0", "paths": {}}', "swagger: Swagger 2.0 is not supported"],
    ['{"openapi": "4.0.0", "paths": {}}', 'openapi: version "4.0.0" is not supported'],
    ['{"openapi": "3.0.0"}', "paths: missing or not an object"],
    ['{"openapi": "3.0.0", "paths": {"pets": {}}}', 'paths.pets: path must start with "/"'],
    [
      '{"openapi": "3.0.0", "servers": [{"url": "https://x.test"}], "paths": {"/pets": {"get": {"parameters": [{"in": "query"}]}}}}',
      "paths./pets.get.parameters[0]: missing name",
    ],
    [
      '{"openapi": "3.0.0", "servers": [{"url": "https://x.test"}], "paths": {"/pets": {"get": {"parameters": [{"name": "a", "in": "body"}]}}}}',
      'paths./pets.get.parameters[0]: "in" must be one of',
    ],
    [
      '{"openapi": "3.0.0", "servers": [{"url": "https://x.test"}], "paths": {"/pets/{id}": {"get": {}}}}',
      'paths./pets/{id}.get: path parameter "id" is not declared',
    ],
    [
      '{"openapi": "3.0.0", "servers": [{"url": "https://x.test"}], "paths": {"/pets": {"get": {"parameters": [{"$ref": "#/components/parameters/Nope"}]}}}}',
      'paths./pets.get.parameters[0]: cannot resolve $ref "#/components/parameters/Nope"',
    ],
    [
      '{"openapi": "3.0.0", "servers": [{"url": "https://x.test"}], "paths": {"/a": {"get": {"operationId": "x"}}, "/b": {"get": {"operationId": "x"}}}}',
      'paths./b.get.operationId: duplicate tool name "x"',
    ],
    ['{"openapi": "3.0.0", "paths": {"/a": {"get": {}}}}', "servers: no server URL"],
    [
      '{"openapi": "3.0.0", "servers": [{"url": "/relative"}], "paths": {"/a": {"get": {}}}}',
      'servers[0].url: "/relative" is not an absolute',
    ],
  ])("rejects an invalid document %#", (document, message) => {
    let caught: unknown;
    try {
      createOpenApiTools({ document, label: "Bad" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OpenApiSpecError);
    expect((caught as OpenApiSpecError).message).toContain(message);
  });
});
