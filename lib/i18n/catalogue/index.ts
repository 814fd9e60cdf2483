// The one message catalogue: every area's entries merged. An area file holds one part of the
// interface; add a new one here. Keys are unique across areas (catalogue.test.ts checks it).
import { audit } from "./audit";
import { common } from "./common";
import { explorer } from "./explorer";
import { filters } from "./filters";
import { history } from "./history";
import { tokens } from "./tokens";
import { views } from "./views";
import { summary } from "./summary";
import { chart } from "./chart";
import { map } from "./map";
import { pivot } from "./pivot";
import { publish } from "./publish";
import { landing } from "./landing";

export const areas = { audit, tokens, common, explorer, filters, history, landing, views, summary, chart, map, pivot, publish } as const;

export const catalogue = { ...audit, ...tokens, ...common, ...explorer, ...filters, ...history, ...landing, ...views, ...summary, ...chart, ...map, ...pivot, ...publish };

export type MessageKey = keyof typeof catalogue;
