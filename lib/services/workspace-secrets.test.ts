import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createHttpCredential, deleteHttpCredential } from "../db/http-credential-repository";
import { saveProvider } from "../db/provider-repository";
import { createWorkspaceVariable } from "../db/workspace-variable-repository";
import { MemoryRunRecorder } from "../engine/memory-recorder";
import { runWorkflow } from "../engine/run-workflow";
import { WorkflowBuilder } from "../engine/testing";
import { type FakeOpenAIServer, fakeScenarios, startFakeOpenAIServer } from "../llm/fake-server";
import { createEngineServices } from "./engine-services";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";
import {
  cachedWorkspaceCount,
  FRESH_CHANGE_MS,
  MAX_CACHED_WORKSPACES,
  setMaxCachedWorkspaces,
  workspaceSecrets,
  workspaceSecretsSnapshot,
} from "./workspace-secrets";

// The per-workspace secrets snapshot is cached across runs and reloaded whenever a credential,
// tool source or variable changes: a secret saved now is masked in the very next run.

const FIRST_KEY = "sk-first-0123456789abcdefFIRSTKEY";
const SECOND_KEY = "sk-second-0123456789abcdefSECONDKEY";

function echoWorkflow() {
  return new WorkflowBuilder()
    .add("start", "start", {})
    .add("llm", "llm", {
      model: { provider: "echo", model: "gpt-4o-mini" },
      userPrompt: "Hi",
      errorStrategy: "default-output",
      defaultOutput: { text: "" },
    })
    .add("end", "end", { outputs: [{ name: "why", value: "{{llm.error.message}}" }] })
    .chain("start", "llm", "end")
    .build();
}

/** Makes every stored change look older than the freshness window, so snapshots are reusable. */
function later(milliseconds = FRESH_CHANGE_MS * 5) {
  const now = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(now + milliseconds);
}

describe("workspace secrets snapshot", () => {
  let test: OwnerWorkspace;
  let server: FakeOpenAIServer;
  let workspaceId: string;
  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", {
      adminEmail: "a@example.test",
      adminPassword: "pw-123456",
      workspaceName: "T",
    });
    ({ workspaceId } = test);
    server = await startFakeOpenAIServer();
    await saveProvider(workspaceId, "echo", { baseURL: server.url, apiKey: FIRST_KEY });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await server?.close();
    await test?.dispose();
  });

  it("is reused across runs while nothing changed", async () => {
    later();
    const first = await workspaceSecretsSnapshot(workspaceId);
    const second = await workspaceSecretsSnapshot(workspaceId);
    expect(second).toBe(first);
    expect(first.secrets).toContain(FIRST_KEY);
    expect(first.providers.get("echo")?.apiKey).toBe(FIRST_KEY);
  });

  it("a changed provider key is masked in the very next run", async () => {
    later();
    const before = await workspaceSecretsSnapshot(workspaceId);
    vi.restoreAllMocks();
    await saveProvider(workspaceId, "echo", { baseURL: server.url, apiKey: SECOND_KEY });
    later();
    const after = await workspaceSecretsSnapshot(workspaceId);
    expect(after).not.toBe(before);
    expect(after.secrets).toContain(SECOND_KEY);
    expect(after.secrets).not.toContain(FIRST_KEY);

    server.script(fakeScenarios.echoKey401());
    const recorder = new MemoryRunRecorder();
    const result = await runWorkflow(
      echoWorkflow(),
      {},
      { runId: "next-run", recorder, services: await createEngineServices({ workspaceId }) },
    );
    // The upstream got the new key and echoed it; the run shows it masked.
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECOND_KEY}`);
    expect(String(result.outputs.why)).toContain("[redacted]");
    expect(JSON.stringify({ result, events: recorder.events })).not.toContain(SECOND_KEY);
  });

  it("an added or removed HTTP credential and a new variable are seen at once", async () => {
    later();
    const before = await workspaceSecretsSnapshot(workspaceId);
    vi.restoreAllMocks();
    await createHttpCredential(workspaceId, {
      name: "crm",
      type: "bearer",
      secret: "crm-token-0123456789abcdef",
      allowedHosts: "crm.example.test",
    } as never);
    expect(await workspaceSecrets(workspaceId, {})).toContain("crm-token-0123456789abcdef");
    await deleteHttpCredential(workspaceId, "crm");
    expect(await workspaceSecrets(workspaceId, {})).not.toContain("crm-token-0123456789abcdef");
    await createWorkspaceVariable(workspaceId, { name: "REGION", value: "eu-west" });
    const services = await createEngineServices({ workspaceId });
    expect(services.env.REGION).toBe("eu-west");
    expect(await workspaceSecretsSnapshot(workspaceId)).not.toBe(before);
  });

  it("a snapshot taken right after a change is not reused (same-millisecond writes would not move the stamp)", async () => {
    await saveProvider(workspaceId, "echo", { baseURL: server.url, apiKey: FIRST_KEY });
    const first = await workspaceSecretsSnapshot(workspaceId);
    expect(await workspaceSecretsSnapshot(workspaceId)).not.toBe(first);
  });

  it("holds a bounded number of workspaces, dropping the least recently used", async () => {
    later();
    const previous = setMaxCachedWorkspaces(5);
    try {
      const kept = await workspaceSecretsSnapshot(workspaceId);
      for (let index = 0; index < 20; index++) {
        await workspaceSecretsSnapshot(`missing-workspace-${index}`);
        if (index % 3 === 0) expect(await workspaceSecretsSnapshot(workspaceId)).toBe(kept);
        expect(cachedWorkspaceCount()).toBeLessThanOrEqual(5);
      }
    } finally {
      setMaxCachedWorkspaces(previous);
    }
    expect(MAX_CACHED_WORKSPACES).toBeLessThan(10_000);
  });
});
