// The Chart tab: its controls, notes and downloads.
import { defineMessages } from "./define";

export const chart = defineMessages({
});
