// The time limits every engine's reads run under, given to openEngine (from configuration:
// DATASTORE_QUERY_TIMEOUT_MS, DATASTORE_COUNT_BUDGET_MS). An engine reads them when a read
// starts, so the server's configuration may be passed as it is (tests change it as they go).
export interface ReadLimits {
  /** A read running longer is stopped: 409 "query took too long". */
  readonly queryTimeoutMs: number;
  /** A total that would take longer to count may be estimated (total_estimation_threshold). */
  readonly countBudgetMs: number;
}
