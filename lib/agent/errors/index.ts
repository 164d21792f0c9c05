export { AgentCancelledError } from "./agent-cancelled-error";
export { AgentConfigError } from "./agent-config-error";
export { InvalidPlanError } from "./invalid-plan-error";
