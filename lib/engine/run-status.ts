import "server-only";

// Run statuses are shared with the browser (run panel, history), so they live in the isomorphic
// lib/workflow; the engine re-exports them under their historical path.
export * from "../workflow/run-status";
