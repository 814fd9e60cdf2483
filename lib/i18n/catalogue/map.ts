// The Map tab: coordinates, layers, the table of cells.
import { defineMessages } from "./define";

export const map = defineMessages({
});
