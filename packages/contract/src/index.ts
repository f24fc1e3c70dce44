export * from "./auth";
export * from "./common";
export * from "./courses";
export * from "./errors";
export * from "./permissions";
export * from "./plans";
export * from "./users";
export * from "./validation";
