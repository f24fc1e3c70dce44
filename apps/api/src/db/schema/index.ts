export * from "./billing";
export * from "./courses";
export * from "./events";
export * from "./identity";
export * from "./mail";
export * from "./notifications";
export * from "./plans";
export * from "./settings";
