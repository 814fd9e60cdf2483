// The explorer's view state: pure, no React, safe on server and client.
export * from "./types";
export * from "./codec";
export * from "./filters";
export * from "./sort";
export * from "./search-text";
export * from "./request";
export * from "./pivot";
export * from "./as-of";
