/**
 * Child process for the durable-resume tests: starts one run through the real RunService on the
 * SQLite file in DATABASE_URL and prints `run <id>`; the parent SIGKILLs it mid-run.
 * Run with `tsx --conditions=react-server`.
 */
import { readDatabaseConfig } from "../../db/database-config";
import { createDatabase, setDatabase } from "../../db/prisma-client";
import { RunService } from "../run-service";
import { approvalDocument, countingTemplateExecutor, slowChainDocument } from "./durable-fixtures";

async function main(): Promise<void> {
  setDatabase(createDatabase(readDatabaseConfig()));
  const countFile = process.env.COUNT_FILE ?? "/dev/null";
  const service = new RunService({ executors: { template: countingTemplateExecutor(countFile, 300) } });
  const document = process.env.CRASH_SCENARIO === "approval" ? approvalDocument() : slowChainDocument();
  const { runId, done } = await service.start({
    workspaceId: process.env.WORKSPACE_ID ?? "",
    workflowId: process.env.WORKFLOW_ID ?? "",
    document,
    inputs: {},
    trigger: "api",
  });
  console.log(`run ${runId}`);
  await done;
  console.log("done");
  // Stay alive like a server would, until the parent kills us.
  setInterval(() => undefined, 1_000);
}

void main();
