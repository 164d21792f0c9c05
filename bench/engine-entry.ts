/**
 * What bench/engine.ts measures, in one module so the benchmark can load it compiled by esbuild
 * (as production bundles it: no per-closure `__name` helpers, which tsx adds to every function).
 */
export { MemoryRunRecorder } from "../lib/engine/memory-recorder";
export { runWorkflow } from "../lib/engine/run-workflow";
export {
  buildTemplateChain,
  createStubToolRegistry,
  createTestServices,
  WorkflowBuilder,
} from "../lib/engine/testing";
