import { describe, expect, it } from "vitest";
import { nextRunTimes, SCHEDULE_PRESETS, scheduleInputSchema } from "./schedule";

describe("schedules", () => {
  it("computes the next times in the schedule's time zone", () => {
    const after = new Date("2026-11-29T00:00:00Z");
    // 09:00 in Athens is 07:00 UTC in winter; Sunday 29 Nov is skipped by 1-5.
    expect(nextRunTimes("0 9 * * 1-5", "Europe/Athens", after, 2).map((date) => date.toISOString())).toEqual([
      "2026-11-30T07:00:00.000Z",
      "2026-12-01T07:00:00.000Z",
    ]);
    for (const preset of SCHEDULE_PRESETS) expect(scheduleInputSchema.safeParse(preset).success).toBe(true);
  });

  it("names the field of a bad expression or time zone", () => {
    const issues = (input: unknown) =>
      scheduleInputSchema.safeParse(input).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];
    expect(issues({ cron: "61 * * * *" })).toEqual([["cron", expect.stringContaining("minute")]]);
    expect(issues({ cron: "0 9 * *" })).toEqual([["cron", expect.stringContaining("five fields")]]);
    expect(issues({ cron: "0 9 * * *", timezone: "Mars/Base" })).toEqual([
      ["timezone", expect.stringContaining("IANA")],
    ]);
    expect(issues({ cron: "" })[0]?.[0]).toBe("cron");
    expect(scheduleInputSchema.parse({ cron: "0 9 * * *" })).toEqual({
      cron: "0 9 * * *",
      timezone: "UTC",
      inputs: {},
      enabled: true,
    });
  });
});
