// Sample data, the embedded default: on first start with an empty database, real tables from
// the vega-datasets package are loaded through datastore_create (the same code path as the
// API), and a new admin token is printed once. DATASTORE_SAMPLE_DATA=0 skips it.
import fs from "node:fs";
import path from "node:path";
import { TokenStore } from "../auth/tokens";
import { config } from "../config";
import { datastoreCreate } from "../datastore/actions/datastore-create";
import type { DatastoreEngine } from "../datastore/engine";
import { DatastoreError } from "../datastore/errors";

type Row = Record<string, unknown>;

interface Sample {
  alias: string;
  file: string;
  name: string;
  description: string;
  private?: boolean;
  /** `label` and `notes` are the data dictionary (CKAN's `info`): the explorer's column header and its description. */
  fields: { id: string; type: string; label?: string; notes?: string }[];
  indexes: string[];
  /** CKAN's `primary_key`: the fields that name a record, so the explorer can edit rows. */
  primaryKey?: string[];
  /** Converts a parsed row to the declared fields (source spellings → ISO dates, etc.). */
  map?: (row: Row) => Row;
}

const MONTHS: Record<string, string> = {
  Jan: "01", Feb: "02", Mar: "03", Apr: "04", May: "05", Jun: "06",
  Jul: "07", Aug: "08", Sep: "09", Oct: "10", Nov: "11", Dec: "12",
};

/** "Jun 12 1998" → "1998-06-12"; anything else → null. */
function monthDayYear(s: unknown): string | null {
  const m = typeof s === "string" ? /^([A-Z][a-z]{2}) (\d{1,2}) (\d{4})$/.exec(s) : null;
  return m && MONTHS[m[1]] ? `${m[3]}-${MONTHS[m[1]]}-${m[2].padStart(2, "0")}` : null;
}

const SAMPLES: Sample[] = [
  {
    alias: "airports",
    file: "airports.csv",
    name: "US airports",
    description: "Airports in the United States with their IATA code, city, state and coordinates (FAA).",
    fields: [
      { id: "iata", type: "text", label: "IATA code", notes: "The airport's three-letter code from the International Air Transport Association." },
      { id: "name", type: "text", label: "Airport" },
      { id: "city", type: "text" },
      { id: "state", type: "text" },
      { id: "country", type: "text" },
      { id: "latitude", type: "float8" },
      { id: "longitude", type: "float8" },
    ],
    // the key's unique index also serves lookups by code
    primaryKey: ["iata"],
    indexes: ["city", "state"],
  },
  {
    alias: "zipcodes",
    file: "zipcodes.csv",
    name: "US ZIP codes",
    description: "Every US ZIP code with its city, state, county and coordinates (about 42,000 rows).",
    fields: [
      { id: "zip_code", type: "text", label: "ZIP code" },
      { id: "latitude", type: "float8" },
      { id: "longitude", type: "float8" },
      { id: "city", type: "text" },
      { id: "state", type: "text" },
      { id: "county", type: "text" },
    ],
    indexes: ["zip_code", "city", "state", "county"],
  },
  {
    alias: "seattle-weather",
    file: "seattle-weather.csv",
    name: "Seattle weather",
    description: "Daily weather in Seattle, 2012–2015: precipitation (mm), temperatures (°C), wind (m/s) and conditions.",
    fields: [
      { id: "date", type: "date" },
      { id: "precipitation", type: "float8", label: "Precipitation (mm)" },
      { id: "temp_max", type: "float8", label: "Max temperature (°C)" },
      { id: "temp_min", type: "float8", label: "Min temperature (°C)" },
      { id: "wind", type: "float8", label: "Wind (m/s)" },
      { id: "weather", type: "text" },
    ],
    indexes: ["date", "weather"],
  },
  {
    alias: "movies",
    file: "movies.json",
    name: "Movies",
    description: "About 3,200 films with box-office grosses, budgets, ratings, genres and directors.",
    fields: [
      { id: "Title", type: "text" },
      { id: "US Gross", type: "int8" },
      { id: "Worldwide Gross", type: "int8" },
      { id: "US DVD Sales", type: "int8" },
      { id: "Production Budget", type: "int8" },
      { id: "Release Date", type: "date" },
      { id: "MPAA Rating", type: "text" },
      { id: "Running Time min", type: "int4" },
      { id: "Distributor", type: "text" },
      { id: "Source", type: "text" },
      { id: "Major Genre", type: "text" },
      { id: "Creative Type", type: "text" },
      { id: "Director", type: "text" },
      { id: "Rotten Tomatoes Rating", type: "int4" },
      { id: "IMDB Rating", type: "float8" },
      { id: "IMDB Votes", type: "int4" },
    ],
    indexes: ["MPAA Rating", "Major Genre", "Director", "Distributor"],
    map: (row) => ({ ...row, "Release Date": monthDayYear(row["Release Date"]) }),
  },
  {
    alias: "penguins",
    file: "penguins.json",
    name: "Palmer penguins",
    description: "Measurements of 344 penguins of three species on three islands of the Palmer Archipelago, Antarctica.",
    fields: [
      { id: "Species", type: "text" },
      { id: "Island", type: "text" },
      { id: "Beak Length (mm)", type: "float8" },
      { id: "Beak Depth (mm)", type: "float8" },
      { id: "Flipper Length (mm)", type: "int4" },
      { id: "Body Mass (g)", type: "int4" },
      { id: "Sex", type: "text" },
    ],
    indexes: ["Species", "Island", "Sex"],
  },
  {
    alias: "birdstrikes",
    file: "birdstrikes.csv",
    name: "Bird strikes (private)",
    description: "10,000 reports of aircraft striking wildlife (FAA). Private: readable only with a token.",
    private: true,
    fields: [
      { id: "Airport Name", type: "text" },
      { id: "Aircraft Make Model", type: "text" },
      { id: "Effect Amount of damage", type: "text" },
      { id: "Flight Date", type: "date" },
      { id: "Aircraft Airline Operator", type: "text" },
      { id: "Origin State", type: "text" },
      { id: "Phase of flight", type: "text" },
      { id: "Wildlife Size", type: "text" },
      { id: "Wildlife Species", type: "text" },
      { id: "Time of day", type: "text" },
      { id: "Cost Other", type: "int4" },
      { id: "Cost Repair", type: "int4" },
      { id: "Cost Total $", type: "int4" },
      { id: "Speed IAS in knots", type: "int4" },
    ],
    indexes: ["Origin State", "Wildlife Species", "Phase of flight"],
  },
  {
    alias: "flights-20k",
    file: "flights-20k.json",
    name: "US flights (20,000)",
    description: "20,000 US domestic flights in 2001: departure time, delay (minutes), distance (miles), origin and destination airports.",
    fields: [
      { id: "date", type: "timestamp", label: "Departure" },
      { id: "delay", type: "int4", label: "Delay (min)", notes: "Minutes between the scheduled and the actual departure; negative when the flight left early." },
      { id: "distance", type: "int4", label: "Distance (miles)", notes: "Great-circle distance between the two airports, in statute miles." },
      { id: "origin", type: "text" },
      { id: "destination", type: "text" },
    ],
    indexes: ["date", "delay", "origin", "destination"],
    map: (row) => ({ ...row, date: String(row.date).replace(/\//g, "-") }),
  },
];

function datasetsDir(): string {
  return path.join(process.cwd(), "node_modules", "vega-datasets", "data");
}

async function readRows(file: string): Promise<Row[]> {
  const text = fs.readFileSync(path.join(datasetsDir(), file), "utf8");
  if (file.endsWith(".json")) return JSON.parse(text) as Row[];
  // Loaded here: every start loads this file, few load the samples.
  const { parse } = await import("csv-parse/sync");
  return parse(text, { columns: true, skip_empty_lines: true }) as Row[];
}

/** Loads every sample resource; returns the new admin token. */
export async function loadSampleData(engine: DatastoreEngine, tokens: TokenStore): Promise<{ token: string; resources: number; rows: number }> {
  let rows = 0;
  await engine.transaction(async (tx) => {
    const ctx = { engine: tx, tokens: new TokenStore(tx.tokens), user: { scope: "admin" as const, name: "sample-data" } };
    for (const s of SAMPLES) {
      const records = (await readRows(s.file)).map((r) => (s.map ? s.map(r) : r));
      await datastoreCreate(ctx, {
        resource: { name: s.name, description: s.description, private: s.private ?? false },
        fields: s.fields.map(({ id, type, ...info }) => ({ id, type, ...(Object.keys(info).length ? { info } : {}) })),
        records,
        aliases: [s.alias],
        indexes: s.indexes,
        ...(s.primaryKey ? { primary_key: s.primaryKey } : {}),
      });
      rows += records.length;
    }
  }, []); // resources made inside, their ids unknown before (DatastoreEngine.transaction)
  await engine.analyze();
  const { token } = await tokens.create("sample-data admin", "admin");
  return { token, resources: SAMPLES.length, rows };
}

/** On first start with an empty database: load the samples and print the URL and token. */
export async function ensureSampleData(engine: DatastoreEngine, tokens: TokenStore): Promise<void> {
  if (!config.sampleData) return;
  const empty = (await engine.listResources()).length === 0 && (await tokens.list()).length === 0;
  if (!empty) return;
  if (!fs.existsSync(datasetsDir())) {
    console.warn("datastore: vega-datasets is not installed; starting without sample data");
    return;
  }
  const started = Date.now();
  let loaded;
  for (let attempt = 1; !loaded; attempt++) {
    try {
      loaded = await loadSampleData(engine, tokens);
    } catch (e) {
      // App servers starting together on one empty PostgreSQL database all try to load the
      // samples: one commits, the others fail on its aliases (the store is no longer empty:
      // done), or give up waiting for them while it still loads (busy: try again).
      if ((await engine.listResources()).length > 0) {
        console.log("datastore: another server loaded the sample data meanwhile");
        return;
      }
      if (!(e instanceof DatastoreError && e.retryAfter !== undefined) || attempt >= 30) throw e;
    }
  }
  const { token, resources, rows } = loaded;
  const url = `http://localhost:${process.env.PORT || 3000}`;
  console.log(
    [
      "",
      `Datastore Explorer: loaded ${resources} sample resources (${rows.toLocaleString("en-US")} rows) into ${config.storeName} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      `  Open ${url}`,
      `  Admin token (shown once, keep it): ${token}`,
      `  Try: curl "${url}/api/action/datastore_search?resource_id=airports&q=portland&limit=5"`,
      "",
    ].join("\n"),
  );
}
