import "server-only";

export type RunEvent = { type: "run-start"; seq: number };
