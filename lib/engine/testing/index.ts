export * from "./scripted-executor";
export * from "./scripted-model";
export * from "./stub-services";
export * from "./workflow-builder";
