// Shapes of the CKAN DataStore API results the explorer reads (see docs/api-contract.md).
import type { Filters, Scalar } from "@/lib/view-state";

export type DatastoreField = { id: string; type: string; info?: Record<string, unknown> };

export type DatastoreRecord = Record<string, unknown>;

export type SearchResult = {
  resource_id: string;
  fields: DatastoreField[];
  records: DatastoreRecord[];
  limit: number;
  offset?: number;
  filters?: Filters;
  q?: string;
  sort?: string;
  total?: number;
  total_was_estimated?: boolean;
  /** With `as_of`: the version read and the time of its write. */
  as_of?: { version: number; time: string | null };
};

/** One entry of datastore_info's `indexes` (ours, beside CKAN's `meta`): an index and why it exists. */
export type IndexInfo = { fields: string[]; reason: "primary_key" | "declared" | "import" | "learned" };

/** What a resource's history keeps (datastore_info meta.history). */
export type HistoryInfo = { enabled: boolean; versions: number; rows: number; bytes: number; oldest_version: number | null };

export type InfoResult = {
  meta: {
    id: string;
    count: number;
    aliases?: string[];
    /** Grows with each committed write (issue 27). */
    version?: number;
    last_modified?: string;
    history?: HistoryInfo;
  };
  indexes?: IndexInfo[];
  fields: DatastoreField[];
};

export type Resource = {
  id: string;
  name?: string | null;
  description?: string | null;
  private?: boolean;
  row_count?: number | null;
  aliases?: string[];
  datastore_active?: boolean;
};

export type ResourceSearchResult = { count: number; results: Resource[] };

type ValueCount = { value: Scalar; count: number };

export type ValueCountsResult = {
  resource_id: string;
  field: string;
  values: ValueCount[];
  partial: boolean;
};

/** One bar of datastore_histogram: values from `from` up to `to` (the last bar includes `to`).
 *  Numbers for numeric fields; ISO strings ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SS") for dates. */
export type HistogramBin = { from: number | string; to: number | string; count: number };

export type HistogramResult = {
  resource_id: string;
  field: string;
  /** null (and no bins) when no row with a value matches. */
  min: number | string | null;
  max: number | string | null;
  bins: HistogramBin[];
  partial: boolean;
};
