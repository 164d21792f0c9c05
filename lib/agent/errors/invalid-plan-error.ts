import "server-only";
import { TrellisError } from "../../workflow/errors";

/** The planner returned a plan that failed validation twice (the first failure gets one repair request). */
export class InvalidPlanError extends TrellisError {
  /** The validation problems of the last attempt, one per line. */
  readonly issues: string[];
  /** The raw planner output of the last attempt. */
  readonly rawOutput: string;

  constructor(issues: string[], rawOutput: string) {
    super("invalid_plan", `The planner returned an invalid plan: ${issues.join("; ")}`, {
      hint: "Check the planner instructions and the tool list; the plan must be JSON steps [{ id, action, tool, input, dependsOn? }].",
    });
    this.issues = issues;
    this.rawOutput = rawOutput;
  }
}
