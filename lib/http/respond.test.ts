import { describe, expect, it, vi } from "vitest";
import { ServerFaultError, TrellisError } from "../workflow/errors";
import { mapError } from "./respond";

describe("mapError", () => {
  it("keeps the status and issues of a TrellisError thrown by another copy of the errors module", async () => {
    // What a production build does: instrumentation and each route bundle their own copy.
    vi.resetModules();
    const copy = (await import("../workflow/errors")) as typeof import("../workflow/errors");
    expect(copy.TrellisError).not.toBe(TrellisError);
    class ForeignInvalid extends copy.TrellisError {
      readonly issues = [{ code: "unknown_variable", nodeId: "n1" }];
      constructor() {
        super("workflow_invalid", "This node has errors; fix them before running it.");
      }
    }
    const error = new ForeignInvalid();
    expect(error instanceof TrellisError).toBe(false);

    const response = mapError(error);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        code: "workflow_invalid",
        message: "This node has errors; fix them before running it.",
        issues: [{ code: "unknown_variable", nodeId: "n1" }],
      },
    });
  });

  it("answers 404 for *_not_found codes and a logged 500 for anything else", async () => {
    expect(mapError(new TrellisError("node_not_found", "Node x is not in the workflow.")).status).toBe(404);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(Object.assign(new Error("boom"), { code: "workflow_invalid" }));
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("internal_error");
    log.mockRestore();
  });

  it("answers a server fault as a logged 500 keeping its code, without its message", async () => {
    class BackendOdd extends ServerFaultError {
      constructor() {
        super("auth_backend_unexpected", "better-auth answered a sign-in with 502 at /internal/path.");
      }
    }
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(new BackendOdd());
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("auth_backend_unexpected");
    expect(body.error.message).not.toContain("better-auth");
    expect(log).toHaveBeenCalledTimes(1);
    log.mockRestore();
  });

  it("recognises a server fault from another copy of the errors module", async () => {
    vi.resetModules();
    const copy = (await import("../workflow/errors")) as typeof import("../workflow/errors");
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(new copy.ServerFaultError("run_row_missing", "Run r1 has no row."));
    expect(response.status).toBe(500);
    log.mockRestore();
  });
});
