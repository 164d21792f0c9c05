import { exampleWorkflows } from "../examples";
import type { ExampleWorkflow } from "../examples/example-workflow";
import { extraTemplates } from "./extra-templates";

/** Every template of the gallery: the seeded examples, then the smaller starting points. */
export const workflowTemplates: ExampleWorkflow[] = [...exampleWorkflows, ...extraTemplates];

export { extraTemplates };
