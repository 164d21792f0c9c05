import type { ExampleWorkflow } from "./example-workflow";
import { planAndExecuteExample } from "./plan-and-execute";
import { reactBetExample } from "./react-bet";
import { ticketBlockersExample } from "./ticket-blockers";

export type { ExampleWorkflow } from "./example-workflow";

/** The example workflows seeded into every new workspace and offered as templates. */
export const exampleWorkflows: ExampleWorkflow[] = [planAndExecuteExample, reactBetExample, ticketBlockersExample];
