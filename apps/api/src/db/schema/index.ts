export * from "./billing";
export * from "./courses";
export * from "./identity";
export * from "./plans";
export * from "./settings";
