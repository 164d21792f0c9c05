import { describe, expect, it } from "vitest";
import { checkServerEnvironment } from "./environment";
import { evaluationLeaseMs } from "./evaluation-lease";

describe("the evaluation lease setting", () => {
  it("defaults to 30 s, reads TRELLIS_EVALUATION_LEASE_MS, and refuses a bad value naming the setting", () => {
    expect(evaluationLeaseMs({})).toBe(30_000);
    expect(evaluationLeaseMs({ TRELLIS_EVALUATION_LEASE_MS: " 5000 " })).toBe(5000);
    for (const bad of ["999", "abc", "1.5", "-3000"])
      expect(() => checkServerEnvironment({ TRELLIS_EVALUATION_LEASE_MS: bad })).toThrow(
        /^TRELLIS_EVALUATION_LEASE_MS: /,
      );
  });
});
