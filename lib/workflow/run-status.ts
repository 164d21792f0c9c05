// Compatibility shim: run statuses live in lib/runs (one definition). Kept only because
// app/api/runs/route.test.ts still imports this path; import "@/lib/runs" in new code.
export * from "../runs/run-status";
