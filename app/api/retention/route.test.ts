import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest } from "@/lib/services/testing/api-client";
import { type OwnerWorkspace, seedOwnerWorkspace } from "@/lib/services/testing/owner-workspace";
import { GET, PUT } from "./route";

describe("retention API", () => {
  let test: OwnerWorkspace;

  beforeAll(async () => {
    test = await seedOwnerWorkspace("sqlite", { adminEmail: "a@b.c", adminPassword: "pw", workspaceName: "W" });
  });
  afterAll(async () => test?.dispose());

  it("answers the 30-day default, saves a change and refuses a bad value naming the field", async () => {
    const initial = await (await GET(apiRequest("GET"))).json();
    expect(initial).toMatchObject({ maxAgeDays: 30, maxCount: null, keepAnnotatedDays: null, lastPrunedAt: null });
    const saved = await PUT(apiRequest("PUT", { maxAgeDays: 7, maxCount: 1000, keepAnnotatedDays: 90 }));
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ maxAgeDays: 7, maxCount: 1000, keepAnnotatedDays: 90 });
    const bad = await PUT(apiRequest("PUT", { maxAgeDays: 0, maxCount: null, keepAnnotatedDays: null }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe("maxAgeDays");
  });
});
