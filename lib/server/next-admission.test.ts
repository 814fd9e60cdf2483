// The API's admission as requests arrive under Next's server (next-admission.ts). A plain Node
// server stands for Next: its listener hands each request to the app's route modules as a Fetch
// Request with the Node request's headers, as Next does. What reaches that listener shows a
// refusal is answered before Next's work; the RateLimit fields, that a request let through is
// billed once, not again by its route.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stampPeerAddresses } from "../http/peer";
import { freshDb } from "../test/api";
import { dispatch } from "../test/routes";
import { admitBeforeNext, entryOf } from "./next-admission";

const saved = process.env.DATASTORE_RATE_ANONYMOUS;
let server: http.Server;
let port: number;
/** The paths Next's stand-in was handed. */
const reached: string[] = [];

beforeAll(async () => {
  freshDb();
  process.env.DATASTORE_RATE_ANONYMOUS = "60:3";
  // As instrumentation.ts does under Next.
  stampPeerAddresses();
  admitBeforeNext();
  admitBeforeNext(); // once per process, however often asked
  server = http.createServer(async (req, res) => {
    reached.push(req.url!);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
    const response = await dispatch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server?.close();
  if (saved === undefined) delete process.env.DATASTORE_RATE_ANONYMOUS;
  else process.env.DATASTORE_RATE_ANONYMOUS = saved;
});

function ask(path: string, localAddress: string, headers: Record<string, string> = {}, body = "{}") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the API's entries, by path", () => {
  it("are the actions, on both paths, and the dump; not uploads, pages, nor a path that is not valid percent-encoding", () => {
    expect(entryOf("/api/action/datastore_search")).toBe("datastore_search");
    expect(entryOf("/api/3/action/no%20such")).toBe("no such");
    expect(entryOf("/datastore/dump/abc")).toBe("datastore_dump");
    for (const path of ["/api/upload", "/api/upload/u1/import", "/", "/api/action/a/b", "/api/action/%E0%A4%A", "/datastore/dump/%E0%A4%A"]) expect(entryOf(path), path).toBeUndefined();
  });
});

describe("admission as a request arrives", () => {
  const WHOAMI = "/api/action/datastore_whoami";

  it("refuses a client past its budget before the server's own listener, with the answer its route gives; others go on, billed once", async () => {
    // another client has asked lately: the server is shared, and anonymous budgets bind
    expect((await ask(WHOAMI, "127.0.0.5")).status).toBe(200);
    const passed = [];
    for (let i = 0; i < 3; i++) passed.push(await ask(WHOAMI, "127.0.0.4"));
    // one unit each: were the route to spend again, the third would be refused
    expect(passed.map((a) => [a.status, /^"anonymous";r=(\d+);/.exec(String(a.headers.ratelimit))?.[1]])).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
    ]);
    expect(reached.length).toBe(4);
    // a client's own stamp is not believed
    const forged = `0 ${JSON.stringify({ client: "address:127.0.0.4", spent: [] })}`;
    const refused = [await ask(WHOAMI, "127.0.0.4"), await ask(WHOAMI, "127.0.0.4", { "x-datastore-admitted": forged }), await ask("/api/3/action/datastore_search", "127.0.0.4")];
    expect(reached.length, "a refused request reached the server's listener").toBe(4);
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429]);
    const [first] = refused;
    expect(first.body).toEqual({
      help: `http://127.0.0.1:${port}/api/3/action/help_show?name=datastore_whoami`,
      success: false,
      error: { __type: "Rate Limit Error", message: "Rate limit: this client's budget of requests is spent for now; try again in 1 s", policy: "anonymous" },
    });
    expect([first.headers["retry-after"], first.headers["ratelimit-policy"]]).toEqual(["1", '"anonymous";q=60;w=60;dsx-burst=3, "expensive";q=60000;w=60;dsx-unit="ms"']);
    expect(first.headers.ratelimit).toMatch(/^"anonymous";r=0;t=\d+, "expensive";r=60000;t=0$/);
    // the security headers Next's proxy would have added (proxy.ts)
    expect([first.headers["x-frame-options"], first.headers["x-content-type-options"]]).toEqual(["DENY", "nosniff"]);
    expect((refused[2].body as { help: string }).help).toMatch(/name=datastore_search$/);
    // an upload is admitted by its route, which reads a refused body as its entry says
    const upload = await ask("/api/upload?filename=a.csv", "127.0.0.4", { "content-type": "text/csv" }, "a\n1\n");
    expect([upload.status, (upload.body as { error: { policy: string } }).error.policy, reached.length]).toEqual([429, "anonymous", 5]);
    // another client is served
    expect((await ask(WHOAMI, "127.0.0.6")).status).toBe(200);
    expect(reached.length).toBe(6);
  });
});
