import { saveProvider } from "../../db/provider-repository";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, type TestDatabase } from "../../db/testing/test-database";
import { createWorkflow } from "../../db/workflow-repository";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "../../llm/fake-server";
import type { FakeReply } from "../../llm/fake-server/types";
import { CURRENT_SCHEMA_VERSION, type WorkflowDocument } from "../../workflow/document";

/** start → agent "Work" (function calling, the calculator) → end, on the fake server's provider `fake`. */
export const agentFlow = {
  schemaVersion: CURRENT_SCHEMA_VERSION,
  nodes: [
    {
      id: "start",
      type: "start",
      position: { x: 0, y: 0 },
      data: { title: "Start", inputs: [{ name: "question", type: "string", required: true }] },
    },
    {
      id: "work",
      type: "agent",
      position: { x: 200, y: 0 },
      data: {
        title: "Work",
        model: { provider: "fake", model: "gpt-4o-mini" },
        mode: "function_call",
        tools: ["calculator"],
        query: "{{start.question}}",
      },
    },
    {
      id: "end",
      type: "end",
      position: { x: 400, y: 0 },
      data: { title: "End", outputs: [{ name: "answer", value: "{{work.answer}}" }] },
    },
  ],
  edges: [
    { id: "e1", source: "start", target: "work" },
    { id: "e2", source: "work", target: "end" },
  ],
} as WorkflowDocument;

/** The fake model's replies for one agent run: a calculator call (30 + 6 tokens), then the answer (50 + 5). */
export function calculatorReplies(): FakeReply[] {
  return [
    {
      toolCalls: [{ name: "calculator", arguments: '{"expression":"2+2"}' }],
      usage: { prompt_tokens: 30, completion_tokens: 6 },
      delayMs: 40,
    },
    { text: "It is 4.", usage: { prompt_tokens: 50, completion_tokens: 5 } },
  ];
}

/** A migrated SQLite database with a workspace, the `fake` provider on a fake OpenAI server, and `agentFlow` saved. */
export interface AgentRunFixture {
  test: TestDatabase;
  server: FakeOpenAIServer;
  workspaceId: string;
  workflowId: string;
  dispose(): Promise<void>;
}

/** Builds an {@link AgentRunFixture}. */
export async function createAgentRunFixture(): Promise<AgentRunFixture> {
  const test = await createTestDatabase("sqlite");
  const server = await startFakeOpenAIServer();
  const seeded = await seedDatabase(test.db, { adminEmail: "o@b.c", adminPassword: "pw", workspaceName: "O" });
  await saveProvider(seeded.workspaceId, "fake", { baseURL: server.url, apiKey: "sk-fake" });
  const { id } = await createWorkflow(seeded.workspaceId, { name: "Sum", userId: seeded.ownerId, draft: agentFlow });
  return {
    test,
    server,
    workspaceId: seeded.workspaceId,
    workflowId: id,
    async dispose() {
      await server.close();
      await test.dispose();
    },
  };
}
