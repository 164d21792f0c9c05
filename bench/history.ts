/**
 * Run-history benchmark: prints ONE JSON object, for SQLite and (when TRELLIS_TEST_POSTGRES_URL
 * is set) PostgreSQL, after seeding 100,000 runs with 10 node runs, 2 events and a search row
 * each (multi-row INSERTs, seconds not minutes):
 *
 *   list_p95_ms.<filter>     p95 of one 50-row history page with that filter (or sort, or page 2)
 *   search_p95_ms.<kind>     p95 of a full-text search page (rare word, common word, phrase, search + filter)
 *   detail_p95_ms            p95 of loading one run with its 10 node runs (the run page's query)
 *   retention                runs and rows deleted, rows/s, and the p99 (and max) latency of run
 *                            writes (create + 10 node events + run end, flushed) made while it prunes
 *
 * Wall time, measured after 5 warm-up queries per case. HISTORY_BENCH_RUNS overrides 100,000.
 * HISTORY_BENCH_PROVIDERS=sqlite|postgresql measures one database. HISTORY_BENCH_KEEP=1 keeps the
 * seeded databases (and skips retention, which deletes half of them), printing how to reuse them:
 * HISTORY_BENCH_REUSE_SQLITE=<file> / HISTORY_BENCH_REUSE_POSTGRESQL=<database> measure a kept seed
 * again without reseeding (retention is skipped then too). HISTORY_BENCH_EXPLAIN=1 also prints each list and search case's query plan to stderr
 * (SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)`).
 */
import { stubServerOnly } from "./engine-sqlite-support";
import { runBench } from "./support";

stubServerOnly();

const RUNS = Number(process.env.HISTORY_BENCH_RUNS ?? 100_000);
const NODES_PER_RUN = 10;
const ITERATIONS = 40;
const WORDS = (
  "order refund invoice shipping weather athens london paris delay damaged package customer support " +
  "agent planner summary translate review contract billing account password reset upgrade cancel " +
  "subscription delivery tracking return exchange warranty complaint feedback survey report"
).split(" ");
const RARE = ["zephyrine", "quixotic", "obsidian", "marzipan", "tungsten"];

type Provider = "sqlite" | "postgresql";

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(2));
}

async function time(run: () => Promise<unknown>, iterations = ITERATIONS): Promise<number[]> {
  for (let index = 0; index < 5; index++) await run();
  const samples: number[] = [];
  for (let index = 0; index < iterations; index++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * A seeded pseudo-random generator (mulberry32), so both databases get the same data. Integer
 * arithmetic only: the earlier `state * 1103515245 % 2^31` in doubles lost precision past 2^53 and
 * fell into a short cycle, so the 100,000 runs were about 900 distinct runs repeated (~108 runs per
 * start millisecond, one text per cycle position), which no real history looks like.
 */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Prints the plan of each raw statement one history query issues (the page's id query first), by
 * wrapping the client's `$queryRawUnsafe` for the duration of one call.
 */
async function explain(
  db: { $queryRawUnsafe: (sql: string, ...parameters: unknown[]) => Promise<unknown> },
  provider: Provider,
  name: string,
  run: () => Promise<unknown>,
): Promise<void> {
  const statements: { sql: string; parameters: unknown[] }[] = [];
  const original = db.$queryRawUnsafe;
  db.$queryRawUnsafe = (sql: string, ...parameters: unknown[]) => {
    statements.push({ sql, parameters });
    return original.call(db, sql, ...parameters);
  };
  try {
    await run();
  } finally {
    db.$queryRawUnsafe = original;
  }
  for (const statement of statements) {
    const prefix = provider === "sqlite" ? "EXPLAIN QUERY PLAN " : "EXPLAIN (ANALYZE, BUFFERS) ";
    const plan = (await original.call(db, prefix + statement.sql, ...statement.parameters)) as Record<
      string,
      unknown
    >[];
    const lines = plan.map((row) =>
      provider === "sqlite" ? `${row.id}/${row.parent} ${row.detail}` : row["QUERY PLAN"],
    );
    console.error(`--- ${provider} ${name}\n${statement.sql.replace(/\s+/g, " ")}\n${lines.join("\n")}`);
  }
}

async function benchProvider(provider: Provider) {
  const { createTestDatabase } = await import("../lib/db/testing/test-database");
  const { seedDatabase } = await import("../lib/db/seed");
  const { createWorkflow, publishWorkflow } = await import("../lib/db/workflow-repository");
  const { buildUpsert, postgresDialect, sqliteDialect } = await import("../lib/db/sql-dialect");
  const { queryRunHistory } = await import("../lib/db/run-history");
  const { sqliteTimestamp } = await import("../lib/db/sql-dialect");
  const { getRunWithNodeRuns, createRun } = await import("../lib/db/run-repository");
  const { saveRetentionPolicy } = await import("../lib/db/retention-repository");
  // The recorder's own column lists, so the seed writes node runs and events exactly as runs do.
  const { PrismaRunRecorder } = await import("../lib/db/run-recorder");
  const { EVENT_COLUMNS, NODE_RUN_COLUMNS } = await import("../lib/db/run-recorder-rows");
  const { pruneWorkspace } = await import("../lib/services/retention");
  const { nodeRunId } = await import("../lib/runs/node-run-reducer");
  const { SEARCH_KEY_SPAN } = await import("../lib/db/run-search");

  const reuse = reusedDatabase(provider);
  const keep = process.env.HISTORY_BENCH_KEEP === "1";
  const test = reuse ? await openDatabase(reuse) : await createTestDatabase(provider);
  const db = test.db;
  const dialect = provider === "sqlite" ? sqliteDialect : postgresDialect;
  try {
    const reused = reuse ? await readSeed(db) : null;
    const seeded =
      reused ??
      (await seedDatabase(db, {
        adminEmail: "b@e.t",
        adminPassword: "bench-password",
        workspaceName: "Bench",
      }));
    const workspaceId = seeded.workspaceId;
    const workflowIds: string[] = reused?.workflowIds ?? [];
    const versionIds: string[] = reused?.versionIds ?? [];
    for (let index = 0; !reused && index < 20; index++) {
      const { id } = await createWorkflow(workspaceId, { name: `Bench ${index}`, userId: seeded.ownerId });
      workflowIds.push(id);
      if (index < 5) versionIds.push((await publishWorkflow(id, { note: "", userId: seeded.ownerId })).id);
    }
    const stamp = (epochMs: number) =>
      provider === "sqlite" ? sqliteTimestamp(new Date(epochMs)) : new Date(epochMs).toISOString();
    const next = random(42);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    // A reused seed keeps its own "now" (its newest start), so the date-range case reads the same runs.
    const now = reused?.now ?? Date.now();
    const statuses = ["succeeded", "succeeded", "succeeded", "succeeded", "failed", "partial", "cancelled"];
    const triggers = ["editor", "api", "api", "schedule"];

    const runColumns = [
      ["id", "value"],
      ["workspaceId", "value"],
      ["workflowId", "value"],
      ["versionId", "value"],
      ["apiKeyId", "value"],
      ["trigger", "value"],
      ["status", "value"],
      ["compiled", "json"],
      ["inputs", "json"],
      ["outputs", "json"],
      ["errorCode", "value"],
      ["errorMessage", "value"],
      ["usesDemoModel", "value"],
      ["startedAt", "timestamp"],
      ["endedAt", "timestamp"],
      ["durationMs", "value"],
      ["steps", "value"],
      ["tokensIn", "value"],
      ["tokensOut", "value"],
      ["cost", "value"],
      ["lastSeq", "value"],
    ] as const;
    const seedStarted = performance.now();
    const BATCH = 500;
    const sampleIds: string[] = reused?.sampleIds ?? [];
    // SQLite search rows are keyed by start time (lib/db/run-search.ts): rowid = ms × span + n.
    const searchKeysPerMs = new Map<number, number>();
    const searchKey = (startedAt: number) => {
      const count = searchKeysPerMs.get(startedAt) ?? 0;
      searchKeysPerMs.set(startedAt, count + 1);
      return (BigInt(startedAt) * BigInt(SEARCH_KEY_SPAN) + BigInt(count)).toString();
    };
    for (let offset = 0; !reused && offset < RUNS; offset += BATCH) {
      const runs: unknown[][] = [];
      const nodes: unknown[][] = [];
      const events: unknown[][] = [];
      const search: unknown[] = [];
      const searchKeys: string[] = [];
      for (let index = offset; index < Math.min(RUNS, offset + BATCH); index++) {
        const id = `bench-run-${String(index).padStart(7, "0")}`;
        if (index % 997 === 0) sampleIds.push(id);
        const workflowIndex = Math.floor(next() * workflowIds.length);
        const status = pick(statuses);
        const trigger = pick(triggers);
        const startedAt = now - Math.floor(next() * 60 * 86_400_000);
        const durationMs = Math.floor(next() * 20_000);
        const words = Array.from({ length: 12 }, () => pick(WORDS));
        if (next() < 0.01) words.push(pick(RARE));
        const question = words.slice(0, 8).join(" ");
        const answer = words.slice(4).join(" ");
        const failed = status === "failed";
        runs.push([
          id,
          workspaceId,
          workflowIds[workflowIndex],
          workflowIndex < 5 ? versionIds[workflowIndex] : null,
          trigger === "api" ? `key-${Math.floor(next() * 10)}` : null,
          trigger,
          status,
          "{}",
          JSON.stringify({ question }),
          JSON.stringify({ answer }),
          failed ? "model_rate_limited" : null,
          failed ? "The provider throttled the request" : null,
          provider === "sqlite" ? 0 : false,
          stamp(startedAt),
          stamp(startedAt + durationMs),
          durationMs,
          NODES_PER_RUN,
          100,
          50,
          Math.round(next() * 10_000) / 10_000,
          2,
        ]);
        for (let node = 0; node < NODES_PER_RUN; node++) {
          nodes.push([
            nodeRunId(id, `node${node}`, [], 1),
            id,
            `node${node}`,
            "llm",
            `Node ${node}`,
            "[]",
            1,
            "succeeded",
            JSON.stringify({ prompt: question }),
            null,
            JSON.stringify({ text: answer }),
            null,
            null,
            null, // missing
            stamp(startedAt + node),
            stamp(startedAt + node + 1),
            10,
            5,
            0.0001,
          ]);
        }
        events.push([
          id,
          1,
          "run-start",
          JSON.stringify({ type: "run-start", runId: id, seq: 1, at: startedAt, inputs: { question } }),
        ]);
        events.push([
          id,
          2,
          "run-end",
          JSON.stringify({ type: "run-end", runId: id, seq: 2, at: startedAt + durationMs, status }),
        ]);
        searchKeys.push(searchKey(startedAt));
        search.push(
          id,
          workspaceId,
          [question, answer, failed ? "model_rate_limited The provider throttled the request" : ""].join("\n"),
        );
      }
      await db.$transaction(
        async (transaction) => {
          const execute = (statement: { sql: string; parameters: unknown[] }) =>
            transaction.$executeRawUnsafe(statement.sql, ...statement.parameters);
          await execute(buildUpsert(dialect, "Run", runColumns, ["id"], runs));
          for (let index = 0; index < nodes.length; index += 1_000) {
            await execute(buildUpsert(dialect, "NodeRun", NODE_RUN_COLUMNS, ["id"], nodes.slice(index, index + 1_000)));
          }
          await execute(buildUpsert(dialect, "RunEventRow", EVENT_COLUMNS, ["runId", "seq"], events));
          const rows = search.length / 3;
          const placeholders = Array.from({ length: rows }, (_, row) =>
            provider === "sqlite" ? `(${searchKeys[row]},?,?,?)` : `($${row * 3 + 1},$${row * 3 + 2},$${row * 3 + 3})`,
          ).join(",");
          // PostgreSQL search rows carry their run's start (as lib/db/run-search.ts writes them).
          await transaction.$executeRawUnsafe(
            provider === "sqlite"
              ? `INSERT INTO "RunSearch" (rowid,"runId","workspaceId","content") VALUES ${placeholders}`
              : `INSERT INTO "RunSearch" ("runId","workspaceId","content","startedAt")
                 SELECT v."runId", v."workspaceId", v."content", r."startedAt"
                 FROM (VALUES ${placeholders}) AS v("runId","workspaceId","content") JOIN "Run" r ON r."id" = v."runId"`,
            ...search,
          );
        },
        { timeout: 120_000 },
      );
    }
    await db.$executeRawUnsafe("ANALYZE");
    const seedSeconds = Number(((performance.now() - seedStarted) / 1000).toFixed(1));

    const page = (query: Parameters<typeof queryRunHistory>[1]) => () =>
      queryRunHistory(workspaceId, { limit: 50, ...query });
    const firstPage = await queryRunHistory(workspaceId, { limit: 50 });
    const filters: Record<string, Parameters<typeof queryRunHistory>[1]> = {
      none: {},
      workflow: { workflowId: workflowIds[7] },
      version: { versionId: versionIds[2] },
      status: { statuses: ["failed"] },
      status_multiple: { statuses: ["failed", "partial"] },
      trigger: { trigger: "schedule" },
      api_key: { apiKeyId: "key-3" },
      date_range: { startedFrom: new Date(now - 20 * 86_400_000), startedTo: new Date(now - 10 * 86_400_000) },
      min_duration: { minDurationMs: 19_000 },
      min_cost: { minCost: 0.99 },
      sort_duration_desc: { sort: "durationMs", direction: "desc" },
      sort_cost_asc: { sort: "cost", direction: "asc" },
      combined: { workflowId: workflowIds[3], statuses: ["succeeded"], trigger: "api", minCost: 0.5 },
      second_page: { cursor: firstPage.nextCursor ?? undefined },
    };
    const searches: Record<string, Parameters<typeof queryRunHistory>[1]> = {
      rare_word: { searchTerms: ["zephyrine"] },
      common_word: { searchTerms: ["refund"] },
      two_words: { searchTerms: ["refund", "athens"] },
      phrase: { searchTerms: ["customer support"] },
      error_text: { searchTerms: ["throttled"] },
      with_filter: { searchTerms: ["refund"], statuses: ["failed"], workflowId: workflowIds[2] },
    };
    if (process.env.HISTORY_BENCH_EXPLAIN === "1") {
      for (const [name, query] of [...Object.entries(filters), ...Object.entries(searches)]) {
        await explain(db, provider, name, () => page(query)());
      }
    }
    const list: Record<string, number> = {};
    for (const [name, query] of Object.entries(filters)) list[name] = percentile(await time(page(query)), 95);
    const search: Record<string, number> = {};
    for (const [name, query] of Object.entries(searches)) search[name] = percentile(await time(page(query)), 95);
    let sample = 0;
    const detail = percentile(await time(() => getRunWithNodeRuns(sampleIds[sample++ % sampleIds.length]), 60), 95);

    const seed = {
      runs: reused ? await db.run.count({ where: { workspaceId } }) : RUNS,
      seed_seconds: reused ? null : seedSeconds,
    };
    if (reuse || keep) {
      // Retention deletes half the runs: a kept or reused seed is measured without it.
      if (keep) console.error(`kept ${provider} seed: ${describeDatabase(test.config)}`);
      return { ...seed, list_p95_ms: list, search_p95_ms: search, detail_p95_ms: detail, retention: null };
    }
    // Retention: half the runs are older than 30 days. A writer records runs meanwhile.
    await saveRetentionPolicy(workspaceId, { maxAgeDays: 30, maxCount: null, keepAnnotatedDays: null });
    const recorder = new PrismaRunRecorder(db, provider, { flushIntervalMs: 5 });
    const writeLatencies: number[] = [];
    let pruning = true;
    const writer = (async () => {
      let counter = 0;
      while (pruning) {
        const started = performance.now();
        const runId = await createRun({
          workspaceId,
          workflowId: workflowIds[0],
          trigger: "api",
          compiled: { schemaVersion: 2, nodes: {}, startNodeId: "start", scopes: {} },
          inputs: {},
          usesDemoModel: false,
        });
        const at = Date.now();
        recorder.record({ runId, seq: 1, at, type: "run-start", inputs: { question: `write ${counter++}` } });
        let seq = 2;
        for (let node = 0; node < NODES_PER_RUN; node++) {
          recorder.record({
            runId,
            seq: seq++,
            at,
            type: "node-start",
            nodeId: `n${node}`,
            iterationPath: [],
            attempt: 1,
            nodeType: "llm",
            title: "N",
            inputs: {},
          });
          recorder.record({
            runId,
            seq: seq++,
            at,
            type: "node-end",
            nodeId: `n${node}`,
            iterationPath: [],
            attempt: 1,
            status: "succeeded",
            outputs: { text: "ok" },
            durationMs: 1,
          });
        }
        recorder.record({
          runId,
          seq,
          at: at + 1,
          type: "run-end",
          status: "succeeded",
          outputs: { answer: "ok" },
          steps: NODES_PER_RUN,
          usage: { inputTokens: 0, outputTokens: 0, cost: 0 },
        } as never);
        await recorder.flush();
        writeLatencies.push(performance.now() - started);
        // Runs arrive at a steady rate (about 50 a second), not back to back.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const pruneStarted = performance.now();
    const pruned = await pruneWorkspace(workspaceId, { batchSize: 200 });
    const pruneSeconds = (performance.now() - pruneStarted) / 1000;
    pruning = false;
    await writer;
    return {
      runs: seed.runs,
      node_runs: seed.runs * NODES_PER_RUN,
      seed_seconds: seed.seed_seconds,
      list_p95_ms: list,
      search_p95_ms: search,
      detail_p95_ms: detail,
      retention: {
        runs_deleted: pruned.runs,
        rows_deleted: pruned.rows,
        batches: pruned.batches,
        seconds: Number(pruneSeconds.toFixed(2)),
        rows_per_second: Math.round(pruned.rows / pruneSeconds),
        concurrent_writes: writeLatencies.length,
        concurrent_write_p99_ms: writeLatencies.length ? percentile(writeLatencies, 99) : null,
        concurrent_write_max_ms: writeLatencies.length ? Number(Math.max(...writeLatencies).toFixed(2)) : null,
      },
    };
  } finally {
    if (reuse || keep) await test.db.$disconnect();
    else await test.dispose();
  }
}

/**
 * HISTORY_BENCH_REUSE_SQLITE=<file> / HISTORY_BENCH_REUSE_POSTGRESQL=<database name>: a seed kept
 * by an earlier HISTORY_BENCH_KEEP=1 run, measured again without reseeding (pending migrations are
 * applied first, so a new index is measured on the same data).
 */
function reusedDatabase(provider: Provider): string | null {
  const value =
    provider === "sqlite" ? process.env.HISTORY_BENCH_REUSE_SQLITE : process.env.HISTORY_BENCH_REUSE_POSTGRESQL;
  return value?.trim() || null;
}

async function openDatabase(location: string) {
  const { readDatabaseConfig } = await import("../lib/db/database-config");
  const { deployMigrations } = await import("../lib/db/migrations");
  const { createDatabase, setDatabase } = await import("../lib/db/prisma-client");
  const config = location.startsWith("/")
    ? readDatabaseConfig({ DATABASE_URL: `file:${location}` })
    : (() => {
        const base = readDatabaseConfig({ DATABASE_URL: process.env.TRELLIS_TEST_POSTGRES_URL });
        if (base.provider !== "postgresql") throw new Error("TRELLIS_TEST_POSTGRES_URL must be a postgresql:// URL");
        return { ...base, database: location, url: base.url.replace(/\/[^/?]*(\?|$)/, `/${location}$1`) };
      })();
  await deployMigrations(config);
  const db = createDatabase(config);
  setDatabase(db);
  return { config, db, dispose: () => db.$disconnect() };
}

function describeDatabase(config: { provider: string; filePath?: string; database?: string }): string {
  return config.provider === "sqlite"
    ? `HISTORY_BENCH_REUSE_SQLITE=${config.filePath}`
    : `HISTORY_BENCH_REUSE_POSTGRESQL=${config.database}`;
}

/** What the measurements need from a kept seed: its workspace, workflows, versions, sample runs and "now". */
async function readSeed(db: import("../lib/db/prisma-client").Database) {
  const workspace = await db.workspace.findFirstOrThrow({ where: { name: "Bench" }, select: { id: true } });
  const workflows = await db.workflow.findMany({
    where: { workspaceId: workspace.id, name: { startsWith: "Bench " } },
    select: { id: true, name: true },
  });
  const byIndex = workflows.sort((left, right) => Number(left.name.slice(6)) - Number(right.name.slice(6)));
  const versionIds: string[] = [];
  for (const workflow of byIndex.slice(0, 5)) {
    const version = await db.workflowVersion.findFirstOrThrow({
      where: { workflowId: workflow.id },
      select: { id: true },
    });
    versionIds.push(version.id);
  }
  const count = await db.run.count({ where: { workspaceId: workspace.id, id: { startsWith: "bench-run-" } } });
  const sampleIds: string[] = [];
  for (let index = 0; index < count; index += 997) sampleIds.push(`bench-run-${String(index).padStart(7, "0")}`);
  const newest = await db.run.findFirstOrThrow({
    where: { workspaceId: workspace.id },
    orderBy: { startedAt: "desc" },
    select: { startedAt: true },
  });
  return {
    workspaceId: workspace.id,
    ownerId: "",
    workflowIds: byIndex.map((workflow) => workflow.id),
    versionIds,
    sampleIds,
    now: newest.startedAt.getTime(),
  };
}

async function main(): Promise<void> {
  // HISTORY_BENCH_PROVIDERS=postgresql (or sqlite) measures one database only.
  const only = process.env.HISTORY_BENCH_PROVIDERS?.split(",").map((name) => name.trim());
  const wanted = (provider: Provider) => !only || only.includes(provider);
  const result: Record<string, unknown> = {
    targets: { list_p95_ms: 100, search_p95_ms: 100, detail_p95_ms: 150 },
    sqlite: wanted("sqlite") ? await benchProvider("sqlite") : null,
    postgresql:
      process.env.TRELLIS_TEST_POSTGRES_URL && wanted("postgresql") ? await benchProvider("postgresql") : null,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

runBench(main);
