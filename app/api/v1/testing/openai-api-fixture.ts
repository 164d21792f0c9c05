/**
 * Test support for the OpenAI-compatible API: published workflows behind its route handlers over
 * real HTTP, on a scratch SQLite database and the fake model, for the official SDKs as clients
 * (`chat/completions/openai-sdk.test.ts` for Node, `openai-python-sdk.test.ts` for Python).
 *
 * The workflows: `ask` (an LLM node), `echo` (a template, no model), `pinned` (published twice, v1
 * and v2 answering differently), `unmapped` (no chat settings: its inputs are found by their names),
 * `counter` (no text input: not a chat model), `topics` (a required input chat cannot fill) and an
 * unpublished draft.
 */
import { createApiKey } from "@/lib/db/api-key-repository";
import { saveProvider } from "@/lib/db/provider-repository";
import { seedDatabase } from "@/lib/db/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createWorkflow, publishWorkflow } from "@/lib/db/workflow-repository";
import type { RouteHandler } from "@/lib/http/route";
import { startRouteServer } from "@/lib/http/testing/route-server";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@/lib/llm/fake-server";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "@/lib/workflow/document";
import { POST as chatCompletions } from "../chat/completions/route";
import { GET as retrieveModel } from "../models/[model]/route";
import { GET as listModels } from "../models/route";

/** The OpenAI-compatible routes (a `[name]` segment is a param, as in the app's folders). */
const ROUTES: Record<string, RouteHandler> = {
  "POST /api/v1/chat/completions": chatCompletions,
  "GET /api/v1/models": listModels,
  "GET /api/v1/models/[model]": retrieveModel,
};

/** The fake provider's model, as the flows' LLM nodes name it. */
export const fakeModel = { provider: "fake", model: "gpt-4o-mini" };

/** start(query, history) → middle → end(answer). */
export function chatFlow(middle: { type: string; data: Record<string, unknown> }, answer: string): WorkflowDocument {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: {
          title: "Start",
          inputs: [
            { name: "question", type: "string", required: true },
            { name: "history", type: "array" },
          ],
          chat: { queryInput: "question", historyInput: "history" },
        },
      },
      { id: "work", type: middle.type, position: { x: 200, y: 0 }, data: { title: "Work", ...middle.data } },
      {
        id: "end",
        type: "end",
        position: { x: 400, y: 0 },
        data: { title: "End", outputs: [{ name: "answer", value: answer }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "work" },
      { id: "e2", source: "work", target: "end" },
    ],
  } as WorkflowDocument;
}

/** A template node answering `template`. */
const templateFlow = (template: string) => chatFlow({ type: "template", data: { template } }, "{{work.text}}");

/** `flow` with these start inputs and no chat settings. */
function withStartInputs(flow: WorkflowDocument, inputs: Record<string, unknown>[]): WorkflowDocument {
  const copy = structuredClone(flow);
  const start = copy.nodes[0];
  if (!start) throw new Error("the flow has no start node");
  start.data = { title: "Start", inputs };
  return copy;
}

/** `ask`: the question to an LLM node, its text the answer. */
export const askFlow = chatFlow(
  { type: "llm", data: { model: fakeModel, userPrompt: "{{start.question}}" } },
  "{{work.text}}",
);
/** `echo`: a template answering `<prefix> Q=<question> H=<history>` (no model). */
export const echoFlow = (prefix: string) =>
  chatFlow(
    { type: "template", data: { template: `${prefix} Q={{start.question}} H={{start.history}}` } },
    "{{work.text}}",
  );

/** The running fixture. */
/**
 * The answer both SDK tests stream through their SDK's stream helper, and the completion the
 * helper must assemble from our chunks (text, finish reason, the usage chunk).
 */
export const helperAnswer = {
  text: "Streams are read with the helper.",
  promptTokens: 9,
  completionTokens: 6,
  completion: {
    model: "ask",
    choices: [
      { index: 0, finish_reason: "stop", message: { role: "assistant", content: "Streams are read with the helper." } },
    ],
    usage: { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 },
  },
};

export interface OpenAiApiFixture {
  /** The scratch database. */
  test: TestDatabase;
  /** The fake model the `ask` flow calls. */
  fake: FakeOpenAIServer;
  /** `http://127.0.0.1:<port>/api/v1`, the SDKs' base URL. */
  baseURL: string;
  /** An API key with the `run` scope. */
  secret: string;
  workspaceId: string;
  ownerId: string;
  /** Workflow ids by name (`Ask`, `Echo`, `Pinned`, `Unmapped`, `Counter`, `Topics`). */
  workflowIds: Record<string, string>;
  /** Stops the server and the fake model, drops the database. */
  close(): Promise<void>;
}

/** Seeds the workspace, publishes the workflows and starts the API server. */
export async function startOpenAiApiFixture(): Promise<OpenAiApiFixture> {
  const test = await createTestDatabase("sqlite");
  const fake = await startFakeOpenAIServer();
  const { workspaceId, ownerId } = await seedDatabase(test.db, {
    adminEmail: "a@b.c",
    adminPassword: "pw",
    workspaceName: "W",
  });
  const workflowIds: Record<string, string> = {};
  const publish = async (name: string, document: WorkflowDocument) => {
    const { id } = await createWorkflow(workspaceId, { name, userId: ownerId, draft: document });
    await publishWorkflow(id, { note: "", userId: ownerId });
    workflowIds[name] = id;
  };
  await saveProvider(workspaceId, "fake", { baseURL: fake.url, apiKey: "sk-fake" });
  await publish("Ask", askFlow);
  await publish("Echo", echoFlow("v1"));
  // Published twice: v1 and v2 differ, so pinning is visible.
  await publish("Pinned", echoFlow("v1"));
  await test.db.workflow.update({
    where: { id: workflowIds.Pinned },
    data: { draft: echoFlow("v2") as unknown as object },
  });
  await publishWorkflow(workflowIds.Pinned as string, { note: "second", userId: ownerId });
  // No chat settings: `question` and `history` are found by their names (lib/workflow/chat-binding.ts).
  const unmapped = withStartInputs(echoFlow("unmapped"), [
    { name: "question", type: "string", required: true },
    { name: "history", type: "array" },
  ]);
  await publish("Unmapped", unmapped);
  // No text input for the message: not a chat model.
  await publish(
    "Counter",
    withStartInputs(templateFlow("counter {{start.count}}"), [{ name: "count", type: "number", required: true }]),
  );
  // `topic` takes the message (the only text input); the required `count` cannot come from chat.
  await publish(
    "Topics",
    withStartInputs(templateFlow("{{start.count}} on {{start.topic}}"), [
      { name: "topic", type: "string", required: true },
      { name: "count", type: "number", required: true },
    ]),
  );
  await createWorkflow(workspaceId, { name: "Draft only", userId: ownerId, draft: askFlow });
  const secret = (await createApiKey(workspaceId, { name: "ci", scopes: ["run"] })).secret;
  const api = await startRouteServer(ROUTES);
  return {
    test,
    fake,
    baseURL: `${api.origin}/api/v1`,
    secret,
    workspaceId,
    ownerId,
    workflowIds,
    async close() {
      await api.close();
      await fake.close();
      await test.dispose();
    },
  };
}
