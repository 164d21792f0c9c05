import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/db/api-key-repository";
import { mapError } from "@/lib/http/respond";
import {
  apiKeyRequest,
  greetingFlow,
  type PublishedApiWorkspace,
  seedPublishedApi,
} from "@/lib/services/testing/published-api";
import { publishWorkflow as publishService } from "@/lib/services/workflows";
import { POST } from "./route";

function call(slug: string, body: unknown, key?: string): Promise<Response> {
  return POST(apiKeyRequest(`/api/v1/workflows/${slug}/run`, key, body), { params: Promise.resolve({ slug }) });
}

describe("published workflow endpoint", () => {
  let test: PublishedApiWorkspace;
  let workspaceId: string;
  let secret: string;

  beforeAll(async () => {
    test = await seedPublishedApi();
    workspaceId = test.workspaceId;
    await test.publish("Greeter");
    await test.publish("Unpublished", greetingFlow(), { publish: false });
    secret = await test.apiKey();
  });
  afterAll(async () => test?.dispose());

  it("answers a blocking call with the outputs", async () => {
    const response = await call("greeter", { inputs: { name: "Ada" } }, secret);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "succeeded",
      version: 1,
      outputs: { greeting: "Hello, Ada!" },
    });
  });

  it("streams run events as SSE ending with run-end", async () => {
    const response = await call("greeter", { inputs: { name: "Grace" }, response_mode: "streaming" }, secret);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const events = text
      .split("\n\n")
      .filter((block) => block.includes("data: "))
      .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)));
    expect(events[0].type).toBe("run-start");
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      status: "succeeded",
      outputs: { greeting: "Hello, Grace!" },
    });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  });

  it("rejects missing, unknown and revoked keys", async () => {
    expect((await call("greeter", {})).status).toBe(401);
    const unknown = await call("greeter", {}, "trl_nope");
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).error.code).toBe("invalid_api_key");
    const revoked = await createApiKey(workspaceId, { name: "old", scopes: ["run"] });
    await revokeApiKey(workspaceId, revoked.key.id);
    const response = await call("greeter", {}, revoked.secret);
    expect(response.status).toBe(401);
    // One code for unknown and revoked keys, so a caller learns nothing about which it holds.
    expect((await response.json()).error.code).toBe("invalid_api_key");
  });

  it("names bad input fields and unpublished or unknown workflows", async () => {
    const bad = await call("greeter", { inputs: "nope" }, secret);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("inputs");
    expect((await call("unpublished", {}, secret)).status).toBe(409);
    expect((await call("missing", {}, secret)).status).toBe(404);
  });

  it("runs the version named in the body, and answers 404 naming a version never published", async () => {
    const pinned = await call("greeter", { inputs: { name: "Ada" }, version: 1 }, secret);
    expect(pinned.status).toBe(200);
    expect(await pinned.json()).toMatchObject({ version: 1, outputs: { greeting: "Hello, Ada!" } });
    const unknown = await call("greeter", { inputs: { name: "Ada" }, version: 42 }, secret);
    expect(unknown.status).toBe(404);
    const body = await unknown.json();
    expect(body.error).toMatchObject({ code: "workflow_version_not_found" });
    expect(body.error.message).toContain("version 42");
    const bad = await call("greeter", { inputs: { name: "Ada" }, version: "latest" }, secret);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.field).toBe("version");
  });

  it("checks start inputs before a run exists: 422 naming every bad field, no coercion, no unknown inputs", async () => {
    const before = await test.db.run.count();
    for (const [inputs, fields] of [
      [{}, ["name"]],
      [{ name: 42 }, ["name"]],
      [{ name: "Ada", mood: "happy" }, ["mood"]],
      [{ name: 42, mood: "happy" }, ["name", "mood"]],
    ] as const) {
      const response = await call("greeter", { inputs }, secret);
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.issues.map((issue: { field: string }) => issue.field)).toEqual(fields);
      expect(body.error.field).toBe(`inputs.${fields[0]}`);
    }
    // No run was created for any of them.
    expect(await test.db.run.count()).toBe(before);
  });

  it("refuses to publish a draft that does not compile, and the endpoint keeps serving the last good version", async () => {
    const workflow = await test.db.workflow.findFirstOrThrow({ where: { slug: "greeter" } });
    const broken = greetingFlow();
    broken.nodes[1]!.data = { title: "Hello", template: "Hello, {{nowhere.name}}!" };
    await test.db.workflow.update({ where: { id: workflow.id }, data: { draft: broken as object } });
    const owner = await test.db.membership.findFirstOrThrow({ where: { workspaceId, role: "owner" } });
    const published = await publishService(
      { kind: "user", userId: owner.userId, workspaceId, role: "owner" },
      workflow.id,
      "broken",
    ).catch((error: unknown) => mapError(error));
    expect(published).toBeInstanceOf(Response);
    const response = published as Response;
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.code).toBe("workflow_invalid");
    expect(body.error.issues[0]).toMatchObject({ nodeId: "hello" });
    const served = await call("greeter", { inputs: { name: "Ada" } }, secret);
    expect(await served.json()).toMatchObject({
      status: "succeeded",
      version: 1,
      outputs: { greeting: "Hello, Ada!" },
    });
  });
});
