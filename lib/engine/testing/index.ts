export * from "./scripted-executor";
export * from "./stub-services";
export * from "./workflow-builder";
