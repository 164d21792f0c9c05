import "server-only";
import { getRunLineage } from "../db/run-lineage-repository";
import { RunNotFoundError } from "../db/run-repository";
import type { RunDetail } from "../runs/node-run-view";
import { compareRuns as compareRunDetails, documentFromCompiled, type RunCompareResult } from "../runs/run-compare";
import { diffWorkflowDocuments } from "../workflow/version-diff";
import type { Principal } from "./access/principal";
import { getRunDetail } from "./runs";

/**
 * Two runs side by side: both details, their node-by-node comparison and how the workflow that
 * ran differs (from the compiled forms the runs kept, so draft runs compare too). Each run is
 * authorized on its own: one of another workspace is "not found".
 */
export async function compareRuns(
  principal: Principal | null,
  runIdA: string,
  runIdB: string,
): Promise<RunCompareResult> {
  // As JSON (times as ISO strings, to the millisecond), the form the page and the comparison read.
  const [a, b] = (await Promise.all([getRunDetail(principal, runIdA), getRunDetail(principal, runIdB)])).map(
    (detail) => JSON.parse(JSON.stringify(detail)) as RunDetail,
  );
  const [lineageA, lineageB] = await Promise.all([getRunLineage(runIdA), getRunLineage(runIdB)]);
  if (!lineageA) throw new RunNotFoundError(runIdA);
  if (!lineageB) throw new RunNotFoundError(runIdB);
  return {
    a,
    b,
    comparison: compareRunDetails(a, b),
    versionDiff: diffWorkflowDocuments(
      documentFromCompiled(lineageA.compiled),
      documentFromCompiled(lineageB.compiled),
    ),
  };
}
