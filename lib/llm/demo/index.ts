import "server-only";

export { DEMO_LABEL } from "./demo-brain";
export { createDemoModel, DEMO_PROFILE, demoReply } from "./demo-model";
