import { describe, expect, it } from "vitest";
import * as chatCompletions from "./chat/completions/route";
import * as evaluation from "./evaluations/[id]/route";
import * as startEvaluation from "./evaluations/route";
import * as mcp from "./mcp/route";
import * as models from "./models/route";
import * as openapi from "./openapi.json/route";
import * as cancelRun from "./runs/[runId]/cancel/route";
import * as runEvents from "./runs/[runId]/events/route";
import * as resumeRun from "./runs/[runId]/resume/route";
import * as run from "./runs/[runId]/route";
import * as workflow from "./workflows/[slug]/route";
import * as startRun from "./workflows/[slug]/run/route";
import * as servedVersion from "./workflows/[slug]/served-version/route";
import * as versions from "./workflows/[slug]/versions/route";
import * as workflows from "./workflows/route";

type RouteModule = Record<string, unknown>;

/** Every /api/v1 route file, with the path it serves and the methods it really implements. */
const ROUTES: [string, RouteModule, string[], "trellis" | "openai"][] = [
  ["/api/v1/workflows/greeter/run", startRun, ["POST"], "trellis"],
  ["/api/v1/runs/r1", run, ["GET"], "trellis"],
  ["/api/v1/runs/r1/cancel", cancelRun, ["POST"], "trellis"],
  ["/api/v1/runs/r1/resume", resumeRun, ["POST"], "trellis"],
  ["/api/v1/runs/r1/events", runEvents, ["GET"], "trellis"],
  ["/api/v1/chat/completions", chatCompletions, ["POST"], "openai"],
  ["/api/v1/models", models, ["GET"], "openai"],
  ["/api/v1/mcp", mcp, ["POST"], "trellis"],
  ["/api/v1/workflows", workflows, ["GET"], "trellis"],
  ["/api/v1/openapi.json", openapi, ["GET"], "trellis"],
  ["/api/v1/workflows/greeter", workflow, ["GET"], "trellis"],
  ["/api/v1/workflows/greeter/versions", versions, ["GET"], "trellis"],
  ["/api/v1/workflows/greeter/served-version", servedVersion, ["PUT"], "trellis"],
  ["/api/v1/evaluations", startEvaluation, ["POST"], "trellis"],
  ["/api/v1/evaluations/e1", evaluation, ["GET"], "trellis"],
];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

describe("wrong methods on /api/v1 routes", () => {
  for (const [path, module, allowed, shape] of ROUTES) {
    for (const method of METHODS.filter((candidate) => !allowed.includes(candidate))) {
      it(`${method} ${path} answers JSON 405 method_not_allowed`, async () => {
        const handler = module[method] as ((request: Request) => Promise<Response>) | undefined;
        expect(handler, `${method} is exported`).toBeTypeOf("function");
        const response = await (handler as (request: Request) => Promise<Response>)(
          new Request(`http://localhost${path}`, { method }),
        );
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe(allowed.join(", "));
        expect(response.headers.get("content-type")).toContain("application/json");
        const body = await response.json();
        expect(body.error.code).toBe("method_not_allowed");
        if (shape === "openai") expect(body.error).toMatchObject({ type: "invalid_request_error", param: null });
      });
    }
  }
});
