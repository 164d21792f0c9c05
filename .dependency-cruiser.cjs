/**
 * Trellis' layer rules (ARCHITECTURE.md, "Layers and import rules"), checked by
 * `npm run lint:layers` (scripts/check-layers.ts) and by `npm test`.
 *
 * Paths are matched after resolution (tsconfig `@/` paths, relative imports, `export … from`,
 * dynamic `import()` and type-only imports alike), relative to the folder the check runs in.
 * npm packages resolve to `node_modules/<name>/…`; the rules match `(^|/)node_modules/` so that
 * the fixture tree of scripts/check-layers.test.ts, which resolves packages from the repository's
 * node_modules, is judged by the same rules.
 *
 * No baseline of known violations is used: every violation is reported.
 */

/** Isomorphic lib packages: safe in the browser and on the server. */
const ISOMORPHIC_LIB = "^lib/(workflow|runs|contracts|interop|evaluation/(checks|model))/";

/** Packages that must never reach the browser or an isomorphic module. */
const SERVER_NPM =
  "(^|/)node_modules/(server-only|openai|prisma|@prisma/[^/]+|bullmq|ioredis|next/headers(\\.js)?)(/|$)";

/** Test files and test-support folders: run by Vitest (which stubs server-only), Playwright or benches. */
const TEST_FILES = ["\\.test\\.tsx?$", "/(testing|test-support|fake-server)/"];

/** Packages whose every non-test file has `import "server-only"` (by convention its first line). */
const GUARDED =
  "^lib/(db|engine|agent|llm|tools|services|http|queue|observability)/|^lib/evaluation/(?!(checks|model)/)";

/** Metrics and tracing packages: only lib/observability builds the registry and the tracer. */
const TELEMETRY_NPM = "(^|/)node_modules/(prom-client|@opentelemetry/[^/]+)/";

/** Files of the guarded packages that may go without the guard, each with the reason (none today). */
const GUARD_PENDING = [];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "openai-only-in-adapter",
      comment: "Only the OpenAI adapter (lib/llm/openai/) imports the openai SDK; everything else uses LanguageModel.",
      severity: "error",
      // The published OpenAI-compatible API (app/api/v1) is tested with the official SDK as its client.
      from: { pathNot: ["^lib/llm/openai/", "^app/api/v1/.+\\.test\\.ts$"] },
      to: { path: "(^|/)node_modules/openai/" },
    },
    {
      name: "prisma-only-in-db",
      comment:
        "Prisma (@prisma/*, prisma, lib/db/generated) is imported only by lib/db, scripts/, prisma/ and prisma.config.ts.",
      severity: "error",
      from: { pathNot: ["^lib/db/", "^scripts/", "^prisma/", "^prisma\\.config\\.ts$"] },
      to: { path: ["(^|/)node_modules/(prisma|@prisma/[^/]+)/", "^lib/db/generated/"] },
    },
    {
      name: "telemetry-only-in-observability",
      comment:
        "prom-client and @opentelemetry/* are imported only by lib/observability (server-only): everything else records through its functions.",
      severity: "error",
      from: { pathNot: ["^lib/observability/"] },
      to: { path: TELEMETRY_NPM },
    },
    {
      name: "components-only-isomorphic",
      comment:
        "components/ import only the isomorphic lib packages (lib/workflow, lib/runs), type-only imports included: move a shared type into one of them.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^lib/", pathNot: ISOMORPHIC_LIB },
    },
    {
      name: "components-no-server-packages",
      comment:
        "components/ never import server-only npm packages: server-only, openai, Prisma, bullmq, ioredis, next/headers.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: SERVER_NPM },
    },
    {
      name: "components-no-node-builtins",
      comment: "components/ run in the browser: no node:* modules.",
      severity: "error",
      from: { path: "^components/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "isomorphic-lib-stays-isomorphic",
      comment:
        "lib/workflow and lib/runs run in the browser too: from lib/ they import only each other (nothing from lib/db, engine, agent, llm, tools, server, services, http).",
      severity: "error",
      from: { path: ISOMORPHIC_LIB },
      to: { path: "^lib/", pathNot: ISOMORPHIC_LIB },
    },
    {
      name: "isomorphic-lib-no-server-packages",
      comment:
        "lib/workflow and lib/runs import no server-only npm package (server-only, openai, Prisma, next/headers).",
      severity: "error",
      from: { path: ISOMORPHIC_LIB, pathNot: TEST_FILES },
      to: { path: SERVER_NPM },
    },
    {
      name: "isomorphic-lib-no-node-builtins",
      comment: "lib/workflow and lib/runs import no node:* module (their tests and test support may).",
      severity: "error",
      from: { path: ISOMORPHIC_LIB, pathNot: TEST_FILES },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "evaluation-not-db-or-services",
      comment:
        "lib/evaluation (runner, judge, checks) is called by lib/services and reads run records it is handed: it imports neither lib/db nor lib/services.",
      severity: "error",
      from: { path: "^lib/evaluation/", pathNot: TEST_FILES },
      to: { path: "^lib/(db|services)/" },
    },
    {
      name: "lib-not-app-or-components",
      comment:
        "Imports point one way: nothing in lib/ imports app/ or components/ (tests may, e.g. to check every route).",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST_FILES },
      to: { path: "^(app|components)/" },
    },
    {
      name: "app-not-db",
      comment:
        "app/ reaches the database only through lib/services and lib/http, never lib/db directly (route tests may seed fixtures through lib/db).",
      severity: "error",
      from: { path: "^app/", pathNot: TEST_FILES },
      to: { path: "^lib/db/" },
    },
    {
      name: "production-not-test-support",
      comment: "Application code never imports test files or test support (testing/, test-support/, fake-server/).",
      severity: "error",
      from: { path: "^(app|components|lib)/", pathNot: TEST_FILES },
      to: { path: TEST_FILES },
    },
    {
      name: "resolvable",
      comment: "Every import resolves: an import the check cannot follow could hide a violation.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  required: [
    {
      name: "server-only-guard",
      comment:
        "Every non-test file of lib/db, lib/engine, lib/agent, lib/llm, lib/tools, lib/services, lib/http, lib/queue, lib/observability and lib/evaluation (but its isomorphic checks/ and model/) imports `server-only`, so that importing it from a client component fails the build.",
      severity: "error",
      module: { path: GUARDED, pathNot: [...TEST_FILES, "^lib/db/generated/", ...GUARD_PENDING] },
      to: { path: "(^|/)node_modules/server-only/" },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count: a component must not even import a server module's types.
    tsPreCompilationDeps: true,
    doNotFollow: { path: ["(^|/)node_modules/", "^lib/db/generated/"] },
    exclude: { path: ["(^|/)\\.next/", "^scripts/testing/layer-fixtures/"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
    reporterOptions: { text: { highlightFocused: false } },
  },
};
