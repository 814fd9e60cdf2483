// Browser client for the datastore API: fetchers that take the token, and query options.
export * from "./types";
export * from "./errors";
export * from "./fetch";
export * from "./queries";
export * from "./summary";
export * from "./aggregate";
export * from "./history";
