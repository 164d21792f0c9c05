import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProvider } from "../db/provider-repository";
import { workspaceSecrets } from "./engine-services";
import { installLogRedaction, redactLogLine, registerLogSecrets } from "./log-redaction";
import { type OwnerWorkspace, seedOwnerWorkspace } from "./testing/owner-workspace";

// Secrets are masked in the server log too (issue 11): what a run must not record, a console line
// must not print, whichever way it gets there (an error's message or stack, a formatted object).

function recordingConsole() {
  const lines: string[] = [];
  const sink = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  return { lines, target: { log: sink, info: sink, warn: sink, error: sink, debug: sink } };
}

describe("log redaction", () => {
  let test: OwnerWorkspace;
  let workspaceId: string;
  const providerKey = "sk-log-marker-7c1e5a9b3d";

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
    ({ workspaceId } = test);
    await saveProvider(workspaceId, "p", { baseURL: "https://x.test/v1", apiKey: providerKey });
  });
  afterAll(async () => test?.dispose());

  it("masks registered secrets in every console method, in messages, stacks and objects", () => {
    const secret = "tok-registered-5f2e8d";
    registerLogSecrets([secret, "short", undefined]);
    const { lines, target } = recordingConsole();
    installLogRedaction(target);
    installLogRedaction(target); // idempotent: lines are not formatted twice
    target.error(new Error(`upstream said: bad token ${secret}`));
    target.warn("config", { headers: { authorization: `Bearer ${secret}` } });
    target.log(`plain ${secret}`);
    expect(lines).toHaveLength(3);
    expect(lines.join("\n")).not.toContain(secret);
    expect(lines[0]).toContain("upstream said: bad token [redacted]");
    expect(lines[0]).toContain("at "); // the stack is still there
    expect(lines[1]).toContain("Bearer [redacted]");
    expect(redactLogLine("short stays")).toBe("short stays");
  });

  it("a workspace's stored secrets are masked once they are loaded for a run", async () => {
    const { lines, target } = recordingConsole();
    installLogRedaction(target);
    target.error(`before: ${providerKey}`);
    await workspaceSecrets(workspaceId);
    target.error(`after: ${providerKey}`);
    expect(lines[0]).toContain(providerKey);
    expect(lines[1]).toBe("after: [redacted]");
  });
});
