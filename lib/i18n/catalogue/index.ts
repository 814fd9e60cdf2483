// The one message catalogue: every area's entries merged. An area file holds one part of the
// interface; add a new one here. Keys are unique across areas (catalogue.test.ts checks it).
import { common } from "./common";

export const areas = { common } as const;

export const catalogue = { ...common };

export type MessageKey = keyof typeof catalogue;
