import next from "eslint-config-next/core-web-vitals";
import ts from "eslint-config-next/typescript";

const config = [
  ...next,
  ...ts,
  {
    // The browser's code reaches the data only through the API (lib/api-client).
    files: ["app/**", "components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(@/|(\\.\\./)+)lib/(?!api-client|view-state)", message: "The explorer talks to the server through lib/api-client only." }] }],
    },
  },
  { ignores: [".next/**", "node_modules/**", "data/**", "test-results/**", "playwright-report/**", "e2e-artifacts/**", "next-env.d.ts"] },
];
export default config;
