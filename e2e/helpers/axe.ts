// The journeys' axe scans. In legacy mode axe runs in the page itself (axe.run); by default
// @axe-core/playwright runs it in parts, one per frame, and joins them in a blank page it opens
// for each scan, which took about half of a scan's time. The explorer has no frames: the
// findings are the same (compared on the table, both maps and the summary tab).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** WCAG 2.0 and 2.1, A and AA, and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** An axe scan of the page (narrow it with include(), as AxeBuilder's). */
export function axe(page: Page, tags = AXE_TAGS): AxeBuilder {
  return new AxeBuilder({ page }).withTags(tags).setLegacyMode();
}
