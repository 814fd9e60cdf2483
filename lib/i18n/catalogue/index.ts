// The one message catalogue: every area's entries merged. An area file holds one part of the
// interface; add a new one here. Keys are unique across areas (catalogue.test.ts checks it).
import { common } from "./common";
import { history } from "./history";

export const areas = { common, history } as const;

export const catalogue = { ...common, ...history };

export type MessageKey = keyof typeof catalogue;
