import { describe, expect, it } from "vitest";
import type { SearchRequest } from "@/lib/view-state";
import { queryKeys, searchQuery, type Session } from "./queries";

const s: Session = { token: null, epoch: 1 };
const page = { resource_id: "r", fields: [], records: [], limit: 10 };

/** What the search shows while `req` loads, after `before` was shown. */
function standIn(req: SearchRequest, before: SearchRequest, session: Session = s) {
  const placeholder = searchQuery(s, req).placeholderData as (previous: unknown, query: unknown) => unknown;
  return placeholder(page, { queryKey: queryKeys.search(session, before) });
}

describe("searchQuery's stand-in while the next page loads", () => {
  const now: SearchRequest = { resource_id: "r", limit: 10 };
  it("keeps the previous page of the same resource, read as of the same moment", () => {
    expect(standIn({ ...now, offset: 10 }, now)).toBe(page);
    expect(standIn({ ...now, as_of: 3, offset: 10 }, { ...now, as_of: 3 })).toBe(page);
  });
  it("never another resource's rows, rows read with another token, or rows of another moment", () => {
    expect(standIn({ ...now, resource_id: "x" }, now)).toBeUndefined();
    expect(standIn(now, now, { token: null, epoch: 2 })).toBeUndefined();
    expect(standIn(now, { ...now, as_of: 3 })).toBeUndefined();
    expect(standIn({ ...now, as_of: 3 }, now)).toBeUndefined();
  });
});
