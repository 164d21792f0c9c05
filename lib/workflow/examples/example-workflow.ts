import type { WorkflowDocument } from "../document";

/** A seeded example workflow, also offered as a template. */
export interface ExampleWorkflow {
  /** Stable slug used to seed it once. */
  slug: string;
  /** Display name. */
  name: string;
  /** What it shows. */
  description: string;
  /** The document. */
  document: WorkflowDocument;
}
