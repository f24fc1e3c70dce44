export * from "./billing";
export * from "./identity";
export * from "./plans";
