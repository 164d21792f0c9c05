import "server-only";
import { registerAnnotatedRunCondition, registerRunDependentTable } from "./retention-repository";
import { registerRunHistoryFilter } from "./run-history";
import { reviewFilterSql } from "./run-review-repository";

/**
 * Wires the review tables into the run history and retention: the `hasAnnotation` and
 * `reviewed` list filters, the tables retention deletes with a run, and what counts as an
 * annotated run (kept `keepAnnotatedDays`). Imported for its effect by the services that list and
 * prune runs; the history and retention modules stay free of review knowledge.
 */
registerRunHistoryFilter({
  name: "hasAnnotation",
  condition: (value) => reviewFilterSql({ hasAnnotation: value === true }, "Run"),
});
registerRunHistoryFilter({
  name: "reviewed",
  condition: (value) => reviewFilterSql({ reviewed: value === true }, "Run"),
});
for (const table of ["RunComment", "RunLabel", "RunReview"]) registerRunDependentTable(table);
registerAnnotatedRunCondition(reviewFilterSql({ hasAnnotation: true }, "Run"));
