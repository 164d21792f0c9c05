import { afterAll, beforeAll, beforeEach } from "vitest";
import type { ApiKeyScope } from "../../contracts/api-keys";
import { type ApiKeySettings, createApiKey } from "../../db/api-key-repository";
import { createWorkflow, publishWorkflow } from "../../db/workflow-repository";
import type { WorkflowDocument } from "../../workflow/document";
import { createServiceRoot, installServiceRoot } from "../root";
import type { RunExecution, StartRunInput } from "../run-execution";
import { RunService } from "../run-service";
import { type OwnerWorkspace, type OwnerWorkspaceOptions, seedOwnerWorkspace } from "./owner-workspace";

/**
 * The start of the published-API (`/api/v1`) route tests, as the e2e specs set up through the API
 * (e2e/support/api-setup.ts): the owner's workspace (`seedOwnerWorkspace`), workflows published
 * from documents, API keys, and requests sent as an API client.
 */

/** start(name) → template "Hello, {{start.name}}!" → end(greeting); a chat's message goes to `name`. */
export function greetingFlow(): WorkflowDocument {
  return {
    schemaVersion: 2,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: {
          title: "Start",
          inputs: [{ name: "name", type: "string", required: true }],
          chat: { queryInput: "name" },
        },
      },
      {
        id: "hello",
        type: "template",
        position: { x: 200, y: 0 },
        data: { title: "Hello", template: "Hello, {{start.name}}!" },
      },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: [{ name: "greeting", value: "{{hello.text}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "hello" },
      { id: "e2", source: "hello", target: "end" },
    ],
  } as WorkflowDocument;
}

/** The owner's workspace with helpers to publish workflows and create API keys. */
export interface PublishedApiWorkspace extends OwnerWorkspace {
  /** Creates the workflow `name` (its slug is the name, slugified) and publishes it unless `publish: false`. */
  publish(
    name: string,
    document?: WorkflowDocument,
    options?: { publish?: boolean },
  ): Promise<{ workflowId: string; versionId: string | undefined }>;
  /** Creates an API key (default scope `run`); resolves with its secret. */
  apiKey(scopes?: ApiKeyScope[], settings?: Omit<ApiKeySettings, "scopes">): Promise<string>;
}

/** Seeds the owner's workspace (see `seedOwnerWorkspace`) for published-API tests. */
export async function seedPublishedApi(
  provider: "sqlite" | "postgresql" = "sqlite",
  options: OwnerWorkspaceOptions = {},
): Promise<PublishedApiWorkspace> {
  const workspace = await seedOwnerWorkspace(provider, options);
  let keys = 0;
  return {
    ...workspace,
    async publish(name, document = greetingFlow(), settings = {}) {
      const { id } = await createWorkflow(workspace.workspaceId, { name, userId: workspace.ownerId, draft: document });
      if (settings.publish === false) return { workflowId: id, versionId: undefined };
      const version = await publishWorkflow(id, { note: "published by the test", userId: workspace.ownerId });
      return { workflowId: id, versionId: version.id };
    },
    async apiKey(scopes = ["run"], settings = {}) {
      keys += 1;
      return (await createApiKey(workspace.workspaceId, { name: `test key ${keys}`, scopes, ...settings })).secret;
    },
  };
}

/** A request to an `/api/v1` route as an API client: `Authorization: Bearer <secret>` (none without one), a JSON body. */
export function apiKeyRequest(
  url: string,
  secret: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Request {
  return new Request(new URL(url, "http://localhost"), {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The messages of an SSE text that carry data, as `{ event, data }` (`event` defaults to `message`). */
export function sseMessages(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
      data: JSON.parse(block.slice(block.indexOf("data: ") + 6)) as Record<string, unknown>,
    }));
}

/**
 * A run service whose `start` waits for `release()` (after `hold()`), or fails with `failWith`,
 * before doing anything: for tests of what a client sees before and while a run is set up.
 */
export class GatedRunService extends RunService {
  starts = 0;
  failWith: Error | undefined;
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  release(): void {
    this.open();
  }

  override async start(input: StartRunInput): ReturnType<RunExecution["start"]> {
    this.starts++;
    await this.gate;
    if (this.failWith) throw this.failWith;
    return super.start(input);
  }
}

/** A published-API workspace ("Greeter" published, a `run` key) whose root runs through a `GatedRunService`. */
export interface GatedPublishedApi {
  test: PublishedApiWorkspace;
  secret: string;
  runs: GatedRunService;
  /** Puts the previous service root back and disposes of the database. */
  dispose(): Promise<void>;
}

/** Seeds a `GatedPublishedApi` and installs its root. */
export async function seedGatedPublishedApi(): Promise<GatedPublishedApi> {
  const test = await seedPublishedApi();
  await test.publish("Greeter");
  const secret = await test.apiKey();
  const runs = new GatedRunService();
  const previous = installServiceRoot(createServiceRoot({ runs }));
  return {
    test,
    secret,
    runs,
    async dispose() {
      if (previous) installServiceRoot(previous);
      await test.dispose();
    },
  };
}

/**
 * A suite's `GatedPublishedApi`: seeded before all tests, disposed after them, its gate open and
 * its failure cleared before each. The fields are there from the suite's first test on.
 */
export function useGatedPublishedApi(): GatedPublishedApi {
  const suite = {} as GatedPublishedApi;
  beforeAll(async () => {
    Object.assign(suite, await seedGatedPublishedApi());
  });
  afterAll(async () => suite.dispose?.());
  beforeEach(() => {
    suite.runs.failWith = undefined;
    suite.runs.release();
  });
  return suite;
}

/** Reads a streamed body on to its end (or until `until` holds for the text so far); the text read. */
export async function readText(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  until: (text: string) => boolean = () => false,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}
