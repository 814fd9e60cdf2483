import next from "eslint-config-next/core-web-vitals";
import ts from "eslint-config-next/typescript";
import noCycle from "./eslint-rules/no-cycle.mjs";
import noRawText from "./eslint-rules/no-raw-text.mjs";

/** Next's React and Next.js rules, off: for the server's code, scripts and browser journeys, which hold no React. */
const noReactRules = Object.fromEntries(
  [...next, ...ts].flatMap((c) => Object.keys(c.rules ?? {})).filter((r) => /^(react|react-hooks|@next\/next|jsx-a11y)\//.test(r)).map((r) => [r, "off"]),
);

const config = [
  ...next,
  ...ts,
  // React Compiler's analysis (react-hooks) was most of lint's rule time, on files without React.
  { files: ["lib/**", "scripts/**", "e2e/**"], rules: noReactRules },
  {
    // The browser's code reaches the data only through the API (lib/api-client). Route handlers
    // (app/**/route.ts) are the API: server code, which calls lib/http.
    files: ["app/**", "components/**"],
    ignores: ["app/**/route.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(@/|(\\.\\./)+)lib/(?!api-client|view-state|i18n)", message: "The explorer talks to the server through lib/api-client only (and takes its words from lib/i18n)." }] }],
    },
  },
  {
    // The interface's words come from the message catalogue (lib/i18n), in every language; brand
    // and format names stay as they are.
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    plugins: { i18n: { rules: { "no-raw-text": noRawText } } },
    rules: {
      "i18n/no-raw-text": [
        "error",
        { allow: ["Datastore Explorer", "CKAN", "DataStore", "API", "CSV", "TSV", "JSON", "NDJSON", "GeoJSON", "XLSX", "Parquet", "SQL", "SVG", "PNG", "URL", "curl", "Python", "JavaScript", "R", "OK", "null", "true", "false", "info.geo"] },
      ],
    },
  },
  {
    // Modules that import each other, directly or in a ring, cannot be read or tested alone.
    files: ["lib/**", "scripts/**", "app/**", "components/**"],
    // (eslint-rules/no-cycle.mjs: import/no-cycle's check, the module graph built once a run.)
    plugins: { project: { rules: { "no-cycle": noCycle } } },
    rules: { "project/no-cycle": "error" },
  },
  {
    // Only the engine's own folder knows SQLite; everything else opens the datastore through
    // the one factory (lib/datastore/open.ts). The benchmark's raw-SQL floors (bench, its bare
    // server and scenario files) are the exception.
    files: ["lib/**", "scripts/**"],
    ignores: ["lib/datastore/sqlite/**", "lib/datastore/open.ts", "scripts/bench.ts", "scripts/bare-server.ts", "scripts/bench-*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^better-sqlite\\d$", message: "Only lib/datastore/sqlite/ talks to SQLite (its driver)." },
            { regex: "sqlite/(engine|connection)$", allowTypeImports: true, message: "Open the datastore with openEngine (lib/datastore/open.ts)." },
          ],
        },
      ],
    },
  },
  // Built output (dist/ is npm start's compiled server, rewritten by the build while lint runs) and reports.
  { ignores: [".next/**", ".next-*/**", "dist/**", "out/**", "node_modules/**", "data/**", "test-results/**", "test-reports/**", "playwright-report/**", "e2e-artifacts/**", "bench-results/**", "next-env.d.ts"] },
];
export default config;
