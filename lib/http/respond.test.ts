import { describe, expect, it, vi } from "vitest";
import { RunRowMissingError } from "../db/run-recorder";
import { TrellisError } from "../workflow/errors";
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

  it("answers a logged 500 with its code for a server-side TrellisError (a Run row gone while recording)", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = mapError(new RunRowMissingError("run_1"));
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("run_row_missing");
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
