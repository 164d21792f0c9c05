import { describe, expect, it } from "vitest";
import { compareReports } from "./comparison";
import { buildReport, quantile, type TrialSummary } from "./report";

function trials(caseId: string, outcomes: boolean[], cost = 0.01, latency = 100): TrialSummary[] {
  return outcomes.map((passed, index) => ({
    caseId,
    trial: index + 1,
    runId: `${caseId}-${index}`,
    passed,
    status: "succeeded",
    checks: [{ name: "c", kind: "contains", passed, reason: "" }],
    cost,
    latencyMs: latency + index,
    tokens: 10,
  }));
}

const cases = [
  { id: "steady", name: "Steady" },
  { id: "flaky", name: "Flaky" },
  { id: "never", name: "Never" },
];

describe("pass^k and pass@k", () => {
  it("a case passing 3 of 5 has pass^5 = 0 and pass@5 = 1; totals average cases", () => {
    const report = buildReport(
      cases,
      [
        ...trials("steady", [true, true, true, true, true]),
        ...trials("flaky", [true, false, true, false, true]),
        ...trials("never", [false, false, false, false, false]),
      ],
      5,
    );
    const flaky = report.cases.find((entry) => entry.caseId === "flaky")!;
    expect(flaky).toMatchObject({ passes: 3, trials: 5, passHatK: 0, passAtK: 1, checkPasses: { c: 3 } });
    expect(report.cases[0]).toMatchObject({ passHatK: 1, passAtK: 1 });
    expect(report.cases[2]).toMatchObject({ passHatK: 0, passAtK: 0 });
    expect(report.totals.passHatKRate).toBeCloseTo(1 / 3);
    expect(report.totals.passAtKRate).toBeCloseTo(2 / 3);
    expect(report.totals.trialPassRate).toBeCloseTo(8 / 15);
    expect(report.totals).toMatchObject({ finishedTrials: 15, plannedTrials: 15, totalTokens: 150 });
  });

  it("unfinished cases have no pass^k yet", () => {
    const report = buildReport(cases.slice(0, 1), trials("steady", [true, true]), 5);
    expect(report.cases[0]).toMatchObject({ passHatK: null, passAtK: null, trials: 2 });
    expect(report.totals.passHatKRate).toBeNull();
  });

  it("quantiles by nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile(values, 0.95)).toBe(95);
    expect(quantile([], 0.5)).toBe(0);
  });
});

describe("comparison", () => {
  it("names fixed, broken and flaky cases with deltas", () => {
    const base = buildReport(
      cases,
      [...trials("steady", [true, true]), ...trials("flaky", [false, false]), ...trials("never", [true, true])],
      2,
    );
    const candidate = buildReport(
      cases,
      [
        ...trials("steady", [true, false], 0.02, 200),
        ...trials("flaky", [true, true]),
        ...trials("never", [true, true]),
      ],
      2,
    );
    const comparison = compareReports(base, candidate);
    expect(comparison.cases.map((entry) => [entry.caseId, entry.change])).toEqual([
      ["steady", "broken"],
      ["flaky", "fixed"],
      ["never", "unchanged"],
    ]);
    expect(comparison.cases[0]).toMatchObject({
      base: "pass",
      candidate: "flaky",
      basePasses: "2/2",
      candidatePasses: "1/2",
    });
    expect(comparison.cases[0]?.costDelta).toBeCloseTo(0.01);
    expect(comparison.cases[0]?.latencyDelta).toBe(100);
    expect(comparison.passHatKDelta).toBe(0);
    const worse = compareReports(
      base,
      buildReport(
        cases,
        [...trials("steady", [true, true]), ...trials("flaky", [true, false]), ...trials("never", [false, false])],
        2,
      ),
    );
    expect(worse.cases.map((entry) => entry.change)).toEqual(["unchanged", "flaky", "broken"]);
    expect(worse.passHatKDelta).toBeCloseTo(-1 / 3);
  });
});

describe("tokens per agent mode", () => {
  it("sums each mode over the trials and averages over the trials that used it", () => {
    const [first, second] = trials("steady", [true, true]);
    const report = buildReport(
      [{ id: "steady", name: "" }],
      [
        { ...first!, tokensByMode: { react: 300, other: 20 } },
        { ...second!, tokensByMode: { react: 100, function_call: 50 } },
      ],
      2,
    );
    expect(report.totals.tokensByMode).toEqual({
      react: { totalTokens: 400, trials: 2, meanTokens: 200 },
      other: { totalTokens: 20, trials: 1, meanTokens: 20 },
      function_call: { totalTokens: 50, trials: 1, meanTokens: 50 },
    });
    // Trials stored before the breakdown existed count for nothing, not as zeros of a mode.
    expect(buildReport([{ id: "steady", name: "" }], [first!], 1).totals.tokensByMode).toEqual({});
  });
});
