// Breaks server-only-guard: lib/queue is server-only (BullMQ workers, Redis), so it needs the guard.
export const RUN_QUEUE_NAME = "runs";
