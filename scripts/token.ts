// `npm run token -- create --name NAME --scope read|write|admin [--expires-days N]
// [--resources ID,…] [--actions NAME,…]`, `npm run token -- list`, `npm run token -- revoke ID`:
// manage API tokens in DATASTORE_DB, through api_token_create and api_token_revoke themselves
// (their checks, and the audit trail, as the command line "npm run token"). A new token's
// secret is printed once; only its hash is stored.
import { parseArgs } from "node:util";
import { TokenStore, type TokenInfo } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import { DatastoreError } from "../lib/datastore/errors";
import { openEngine } from "../lib/datastore/open";

const USAGE = `usage:
  npm run token -- create --name NAME --scope read|write|admin [--expires-days N] [--resources ID,…] [--actions NAME,…]
  npm run token -- list
  npm run token -- revoke ID`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    scope: { type: "string" },
    "expires-days": { type: "string" },
    resources: { type: "string" },
    actions: { type: "string" },
  },
});
const [command, arg] = positionals;

const limits = (t: TokenInfo) => [t.resources && `resources ${t.resources.join(",")}`, t.actions && `actions ${t.actions.join(",")}`].filter(Boolean).join("  ");

async function run(ctx: ActionContext): Promise<void> {
  if (command === "create") {
    if (!values.name) fail("--name is required");
    const days = values["expires-days"] ? Number(values["expires-days"]) : undefined;
    if (days !== undefined && !(days > 0)) fail("--expires-days must be a positive number");
    const params = {
      name: values.name,
      scope: values.scope ?? "read",
      ...(days ? { expires_in: Math.round(days * 86400), unit: 1 } : {}),
      ...(values.resources !== undefined ? { resources: values.resources } : {}),
      ...(values.actions !== undefined ? { actions: values.actions } : {}),
    };
    const t = (await ACTIONS.api_token_create.run(ctx, params)) as TokenInfo & { token: string };
    const limited = limits(t);
    console.log(`Created ${t.scope} token "${t.name}" (id ${t.id})${t.expires_at ? `, expires ${t.expires_at}` : ""}${limited ? `, limited to ${limited}` : ""}.`);
    console.log("Token (shown once; send it as the Authorization header):");
    console.log(t.token);
  } else if (command === "list") {
    const list = await ctx.tokens.list();
    if (list.length === 0) console.log("No tokens.");
    for (const t of list) {
      console.log(`${t.id}  ${t.scope.padEnd(5)}  ${t.name}  created ${t.created_at}  last used ${t.last_access ?? "never"}${t.expires_at ? `  expires ${t.expires_at}` : ""}${limits(t) ? `  ${limits(t)}` : ""}`);
    }
  } else if (command === "revoke") {
    if (!arg) fail("revoke needs a token id (see `npm run token -- list`)");
    await ACTIONS.api_token_revoke.run(ctx, { id: arg });
    console.log(`Revoked ${arg}.`);
  } else {
    fail(command ? `unknown command: ${command}` : "a command is required");
  }
}

async function main(): Promise<void> {
  // No read workers: a few small statements do not need threads.
  const engine = await openEngine({ readWorkers: 0 });
  try {
    await run({ engine, tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "npm run token" } });
  } finally {
    await engine.close();
  }
}

main().catch((e) => {
  console.error(`token: ${e instanceof DatastoreError ? Object.values(e.details).flat().join("; ") : ((e as Error)?.message ?? String(e))}`);
  process.exit(1);
});
