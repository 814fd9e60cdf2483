// What the Summary, Chart and Map tabs get from the explorer: the view (search, filters and
// their own settings, all in the URL), the resource's fields with their data dictionary, and
// the ways back into the view.
import type { DatastoreField, Resource } from "@/lib/api-client";
import type { ViewState } from "@/lib/view-state";

export interface ViewProps {
  view: ViewState;
  resource: Resource | null;
  /** The resource's fields (from datastore_info, with `info`), `_id` excluded. */
  fields: DatastoreField[];
  /** The resource's name, for captions and file names. */
  title: string;
  onChange: (patch: Partial<ViewState>, options?: { replace?: boolean }) => void;
  /** Opens the record view of one row. */
  onOpenRecord: (id: number) => void;
}
