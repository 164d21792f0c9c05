/**
 * What the in-process published-API benches (api-profile, api-breakdown) start from: a scratch
 * SQLite database (installed as the process-wide client, named in DATABASE_URL), the seeded
 * workspace with the `fake` provider pointing at the fake model, one published workflow and an
 * API key with the `run` scope. Measurement support only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApiKey } from "../lib/db/api-key-repository";
import { deployMigrations } from "../lib/db/migrations";
import { createDatabase, type Database, setDatabase } from "../lib/db/prisma-client";
import { saveProvider } from "../lib/db/provider-repository";
import { seedDatabase } from "../lib/db/seed";
import { createWorkflow, publishWorkflow } from "../lib/db/workflow-repository";
import type { WorkflowDocument } from "../lib/workflow/document";
import { slugify } from "../lib/workflow/naming";

/** The fixture: its database, ids, the workflow's slug, the key's secret. */
export interface PublishedRunFixture {
  db: Database;
  workspaceId: string;
  workflowId: string;
  slug: string;
  secret: string;
  /** Disconnects and deletes the database. */
  dispose(): Promise<void>;
}

/** Creates the fixture; `name` names the folder, the workflow (its slug) and the key. */
export async function publishedRunFixture(
  name: string,
  modelUrl: string,
  document: WorkflowDocument,
): Promise<PublishedRunFixture> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `trellis-${slugify(name)}-`));
  const filePath = path.join(folder, "bench.db");
  const config = { provider: "sqlite" as const, url: `file:${filePath}`, filePath };
  process.env.DATABASE_URL = config.url;
  process.env.TRELLIS_SECRET_KEY ??= Buffer.alloc(32, 7).toString("base64");
  // The benches measure the run path, not the per-key limiter.
  process.env.TRELLIS_API_RATE_LIMIT = "100000000";
  process.env.TRELLIS_HTTP_ALLOWLIST = new URL(modelUrl).host;
  await deployMigrations(config);
  const db = createDatabase(config);
  setDatabase(db);
  const dispose = async () => {
    await db.$disconnect();
    fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    const { workspaceId, ownerId } = await seedDatabase(db, {
      adminEmail: "bench@x.test",
      adminPassword: "pw-123456",
      workspaceName: "Bench",
    });
    await saveProvider(workspaceId, "fake", { baseURL: modelUrl, apiKey: "sk-bench" });
    const { id: workflowId } = await createWorkflow(workspaceId, { name, userId: ownerId, draft: document });
    await publishWorkflow(workflowId, { note: name, userId: ownerId });
    const { secret } = await createApiKey(workspaceId, { name, scopes: ["run"] });
    return { db, workspaceId, workflowId, slug: slugify(name), secret, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
