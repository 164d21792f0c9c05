import { describe, expect, it } from "vitest";
import {
  EMPTY_FILTERS,
  filtersFromSearchParams,
  filtersToApiQuery,
  filtersToSearchParams,
  hasFilters,
} from "./history-query";

describe("history URL state", () => {
  it("round-trips filters through the page URL, keeping only what differs from the default", () => {
    const filters = { ...EMPTY_FILTERS, q: "refund order", status: "failed", minCost: "0.5" };
    const params = filtersToSearchParams(filters);
    expect(params.toString()).toBe("q=refund+order&status=failed&minCost=0.5");
    expect(filtersFromSearchParams(params)).toEqual(filters);
    expect(hasFilters(filters)).toBe(true);
    expect(hasFilters(EMPTY_FILTERS)).toBe(false);
  });

  it("turns days, seconds and the sort into the API's query", () => {
    const query = filtersToApiQuery({
      ...EMPTY_FILTERS,
      from: "2026-03-01",
      to: "2026-03-01",
      minDuration: "2.5",
      sort: "cost:asc",
    });
    expect(new Date(query.get("to")!).getTime() - new Date(query.get("from")!).getTime()).toBe(86_400_000);
    expect(query.get("minDurationMs")).toBe("2500");
    expect(query.get("sort")).toBe("cost");
    expect(query.get("direction")).toBe("asc");
    expect(filtersToApiQuery({ ...EMPTY_FILTERS, from: "soon" }).get("from")).toBe("soon");
  });
});
