// The environment that turns the request budgets off (docs/api.md "Quotas"), for the servers
// tests, journeys and benches start: their many clients all come from 127.0.0.1 at once, where
// a portal's budgets are sized for one person an address. A suite about the budgets sets its own.
export const NO_QUOTAS = { DATASTORE_RATE_ANONYMOUS: "off", DATASTORE_RATE_TOKEN: "off", DATASTORE_RATE_EXPENSIVE: "off" } as const;
