// `npm run token -- create --name NAME --scope read|write|admin [--expires-days N]`,
// `npm run token -- list`, `npm run token -- revoke ID`: manage API tokens in DATASTORE_DB.
// A new token's secret is printed once; only its hash is stored.
import { parseArgs } from "node:util";
import { SCOPES, type Scope } from "../lib/auth/principal";
import { TokenStore } from "../lib/auth/tokens";
import { DatastoreError } from "../lib/datastore/errors";
import { openEngine } from "../lib/datastore/open";

const USAGE = `usage:
  npm run token -- create --name NAME --scope read|write|admin [--expires-days N]
  npm run token -- list
  npm run token -- revoke ID`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { name: { type: "string" }, scope: { type: "string" }, "expires-days": { type: "string" } },
});
const [command, arg] = positionals;

async function run(tokens: TokenStore): Promise<void> {
  if (command === "create") {
    if (!values.name) fail("--name is required");
    const scope = (values.scope ?? "read") as Scope;
    if (!SCOPES.includes(scope)) fail(`--scope must be one of ${SCOPES.join(", ")}`);
    const days = values["expires-days"] ? Number(values["expires-days"]) : undefined;
    if (days !== undefined && !(days > 0)) fail("--expires-days must be a positive number");
    const t = await tokens.create(values.name, scope, days ? new Date(Date.now() + days * 86400_000) : undefined);
    console.log(`Created ${t.scope} token "${t.name}" (id ${t.id})${t.expires_at ? `, expires ${t.expires_at}` : ""}.`);
    console.log("Token (shown once; send it as the Authorization header):");
    console.log(t.token);
  } else if (command === "list") {
    const list = await tokens.list();
    if (list.length === 0) console.log("No tokens.");
    for (const t of list) {
      console.log(`${t.id}  ${t.scope.padEnd(5)}  ${t.name}  created ${t.created_at}  last used ${t.last_access ?? "never"}${t.expires_at ? `  expires ${t.expires_at}` : ""}`);
    }
  } else if (command === "revoke") {
    if (!arg) fail("revoke needs a token id (see `npm run token -- list`)");
    if (!(await tokens.revoke(arg))) fail(`no token with id ${arg}`);
    console.log(`Revoked ${arg}.`);
  } else {
    fail(command ? `unknown command: ${command}` : "a command is required");
  }
}

async function main(): Promise<void> {
  // No read workers: a few small statements do not need threads.
  const engine = await openEngine({ readWorkers: 0 });
  try {
    await run(new TokenStore(engine.tokens));
  } finally {
    await engine.close();
  }
}

main().catch((e) => {
  console.error(`token: ${e instanceof DatastoreError ? Object.values(e.details).flat().join("; ") : ((e as Error)?.message ?? String(e))}`);
  process.exit(1);
});
