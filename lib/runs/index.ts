/**
 * Public surface of lib/runs (isomorphic: browser and server). What a run is made of once it
 * runs: the event union, the statuses, the NodeRun rows and the one reducer that folds the former
 * into the latter.
 */
export * from "./live-node-runs";
export * from "./node-run-reducer";
export * from "./node-run-view";
export * from "./run-events";
export * from "./run-status";
