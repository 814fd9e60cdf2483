// The one message catalogue: every area's entries merged. An area file holds one part of the
// interface; add a new one here. Keys are unique across areas (catalogue.test.ts checks it).
import { audit } from "./audit";
import { common } from "./common";
import { explorer } from "./explorer";
import { filters } from "./filters";
import { history } from "./history";
import { tokens } from "./tokens";
import { views } from "./views";

export const areas = { audit, tokens, common, explorer, filters, history, views } as const;

export const catalogue = { ...audit, ...tokens, ...common, ...explorer, ...filters, ...history, ...views };

export type MessageKey = keyof typeof catalogue;
