/** The Trellis export file lives in lib/interop/trellis (isomorphic); the list page keeps importing it from here. */
export {
  buildWorkflowFile,
  type ImportFieldError,
  parseWorkflowFile,
  type WorkflowFile,
  workflowFileSchema,
} from "@/lib/interop/trellis/workflow-file";
