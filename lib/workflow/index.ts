export * from "./compiled";
export * from "./document";
export * from "./node-definition";
