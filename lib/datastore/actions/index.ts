// The action registry: every name the API answers, and whether GET may call it
// (CKAN: only read actions accept GET; everything else is POST-only).
import { requireAction, type ActionContext } from "../context";
import { refuseAsOf } from "../history";
import type { Params } from "../validate";
import { apiTokenPatch } from "./api-token-patch";
import { apiTokenCreate, apiTokenList, apiTokenRevoke, datastoreWhoami } from "./api-tokens";
import { datastoreAggregate } from "./datastore-aggregate";
import { datastoreAuditList } from "./datastore-audit";
import { datastoreCreate } from "./datastore-create";
import { datastoreDelete, datastoreRecordsDelete } from "./datastore-delete";
import { datastoreHistogram } from "./datastore-histogram";
import { datastoreChanges, datastoreRecordHistory } from "./datastore-history";
import { datastoreInfo } from "./datastore-info";
import { datastoreSearch } from "./datastore-search";
import { datastoreSearchAll } from "./datastore-search-all";
import { datastoreSummary } from "./datastore-summary";
import { datastoreUpsert } from "./datastore-upsert";
import { datastoreValueCounts } from "./datastore-value-counts";
import { datastoreViewCreate, datastoreViewDelete, datastoreViewList, datastoreViewPatch, datastoreViewShow } from "./datastore-views";
import { resourceDelete } from "./resource-delete";
import { resourcePatch } from "./resource-patch";
import { resourceSearch, resourceShow } from "./resources";

export interface Action {
  run: (ctx: ActionContext, params: Params) => unknown | Promise<unknown>;
  /** Read actions accept GET as well as POST. */
  read: boolean;
}

export const ACTIONS: Record<string, Action> = {
  datastore_search: { run: datastoreSearch, read: true },
  datastore_info: { run: datastoreInfo, read: true },
  datastore_value_counts: { run: datastoreValueCounts, read: true },
  datastore_histogram: { run: datastoreHistogram, read: true },
  datastore_aggregate: { run: datastoreAggregate, read: true },
  datastore_summary: { run: datastoreSummary, read: true },
  datastore_record_history: { run: datastoreRecordHistory, read: true },
  datastore_changes: { run: datastoreChanges, read: true },
  resource_show: { run: resourceShow, read: true },
  resource_search: { run: resourceSearch, read: true },
  datastore_search_all: { run: datastoreSearchAll, read: true },
  datastore_create: { run: datastoreCreate, read: false },
  datastore_upsert: { run: datastoreUpsert, read: false },
  datastore_delete: { run: datastoreDelete, read: false },
  datastore_records_delete: { run: datastoreRecordsDelete, read: false },
  resource_patch: { run: resourcePatch, read: false },
  resource_delete: { run: resourceDelete, read: false },
  api_token_create: { run: (ctx, params) => apiTokenCreate(ctx, params, Object.keys(ACTIONS)), read: false },
  api_token_list: { run: apiTokenList, read: true },
  api_token_revoke: { run: apiTokenRevoke, read: false },
  api_token_patch: { run: apiTokenPatch, read: false },
  datastore_whoami: { run: datastoreWhoami, read: true },
  datastore_view_create: { run: datastoreViewCreate, read: false },
  datastore_view_show: { run: datastoreViewShow, read: true },
  datastore_view_list: { run: datastoreViewList, read: true },
  datastore_audit_list: { run: datastoreAuditList, read: true },
  datastore_view_patch: { run: datastoreViewPatch, read: false },
  datastore_view_delete: { run: datastoreViewDelete, read: false },
};

/** Runs the action `name` (one of ACTIONS) for the caller: a token limited to actions calls
 *  those alone (context.ts decides); `as_of` only where the past is read. */
export function runAction(ctx: ActionContext, name: string, params: Params): unknown {
  requireAction(ctx, name);
  refuseAsOf(name, params);
  return ACTIONS[name].run(ctx, params);
}
