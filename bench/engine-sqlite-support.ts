/**
 * Helpers that let bench/engine.ts measure the Prisma recorder: lib/db is marked `server-only`,
 * which throws outside React Server Components, so the marker is stubbed before lib/db loads.
 */
import { createRequire } from "node:module";
import type { Database } from "../lib/db/prisma-client";
import type { CompiledWorkflow } from "../lib/workflow/compiled";

const require = createRequire(import.meta.url);

/** Replaces the `server-only` marker with an empty module for this process (benchmarks only). */
export function stubServerOnly(): void {
  const resolved = require.resolve("server-only");
  const cache = require.cache as Record<string, unknown>;
  cache[resolved] = { id: resolved, filename: resolved, loaded: true, exports: {} };
}

let seeded: { workspaceId: string; userId: string } | undefined;

/** Seeds a workspace once, then creates a workflow and a queued run row for the recorder to fill. */
export async function createRunForBenchmark(db: Database, compiled: CompiledWorkflow): Promise<string> {
  const { seedDatabase } = await import("../lib/db/seed");
  const { createWorkflow } = await import("../lib/db/workflow-repository");
  const { createRun } = await import("../lib/db/run-repository");
  if (!seeded) {
    const { workspaceId, ownerId } = await seedDatabase(db, {
      adminEmail: "bench@example.test",
      adminPassword: "bench-password",
      workspaceName: "Bench",
    });
    seeded = { workspaceId, userId: ownerId };
  }
  const { id: workflowId } = await createWorkflow(seeded.workspaceId, {
    name: `bench ${Date.now()}`,
    userId: seeded.userId,
  });
  return createRun({
    workspaceId: seeded.workspaceId,
    workflowId,
    trigger: "api",
    compiled,
    inputs: {},
    usesDemoModel: false,
  });
}
