// The Pivot tab: rows, columns, the value and the cross-table.
import { defineMessages } from "./define";

export const pivot = defineMessages({
});
