import { describe, expect, it } from "vitest";
import { DEFAULT_VIEW, parseViewState } from "@/lib/view-state";
import { pinnedLink, shareLinks } from "./share-menu";

describe("Share's links", () => {
  const view = { ...DEFAULT_VIEW, resource_id: "r", q: "sea", record: 4 };

  it("the link to this version pins as_of to the version, without the open record", () => {
    const link = new URL(pinnedLink("http://h", view, 12));
    expect(link.origin + link.pathname).toBe("http://h/");
    expect(parseViewState(link.searchParams)).toEqual({ ...view, as_of: 12, record: null });
  });

  it("replaces a time the view was shown at with the version it read", () => {
    const past = { ...view, as_of: "2026-11-27T10:00:00Z" };
    expect(new URL(pinnedLink("http://h", past, 7)).searchParams.getAll("as_of")).toEqual(["7"]);
  });

  it("the plain link keeps the view's own as_of (what is on screen), and so does the embed", () => {
    const past = { ...view, as_of: 7 };
    const { link, embed } = shareLinks("http://h", past, undefined);
    expect(new URL(link).searchParams.get("as_of")).toBe("7");
    expect(new URL(embed).searchParams.get("as_of")).toBe("7");
  });
});
