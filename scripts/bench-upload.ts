// The upload scenario of `npm run bench` (alone: `npm run bench -- --only upload`): the 3M-row
// CSV streamed from disk to a fresh API-only server (`npm run start:api`, its own database and
// upload directory), POST /api/upload then POST /api/upload/<id>/import with NDJSON progress,
// each phase timed, the server's memory sampled every 100 ms (VmRSS, and VmHWM at the end),
// beside `npm run import` of the same file in the same run. Every figure comes from this run.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { freePort, startArgs } from "../lib/test/server";
import type { TimedImport } from "./bench-import";

const TOKEN = "bench-upload-token";

export interface UploadBench {
  rows: number;
  bytes: number;
  upload: { seconds: number; rowsPerSecond: number; megabytesPerSecond: number };
  import: { seconds: number; rowsPerSecond: number; progressLines: number };
  total: { seconds: number; rowsPerSecond: number };
  /** `npm run import` of the same file, as a user runs it, start to exit. */
  cli: TimedImport;
  /** The upload's total rate over the command line's (1 = as fast). */
  ofCliRate: number;
  memoryMb: { beforeUpload: number; peakDuringUpload: number; peakDuringImport: number; vmHwm: number };
}

function memory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** One request; the body piped from `body` (a file stream) or written whole. */
function request(port: number, method: string, pathAndQuery: string, headers: Record<string, string | number>, body: fs.ReadStream | string, onData?: (chunk: string) => void): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: pathAndQuery, headers: { authorization: TOKEN, ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
        onData?.(c);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (typeof body === "string") req.end(body);
    else body.pipe(req);
  });
}

async function waitReady(port: number, deadline = Date.now() + 60_000): Promise<void> {
  for (;;) {
    try {
      const res = await request(port, "POST", "/api/action/datastore_whoami", { "content-type": "application/json" }, "{}");
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error("the API server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}

const since = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e9;

/** Runs the scenario in `dir` (emptied first); `cli` is `npm run import`'s timing of `csv`. */
export async function benchUpload(csv: string, dir: string, cli: TimedImport): Promise<UploadBench> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const server = spawn(process.execPath, [...startArgs(), "--api", "-H", "127.0.0.1", "-p", String(port)], {
    env: {
      ...process.env,
      DATASTORE_DB: path.join(dir, "upload.db"),
      DATASTORE_SAMPLE_DATA: "0",
      DATASTORE_ADMIN_TOKEN: TOKEN,
      DATASTORE_UPLOAD_DIR: path.join(dir, "uploads"),
      PORT: String(port),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let phase: "idle" | "upload" | "import" = "idle";
  const peak = { idle: 0, upload: 0, import: 0 };
  const sampler = setInterval(() => {
    try {
      peak[phase] = Math.max(peak[phase], memory(server.pid!).rss);
    } catch {
      /* exited */
    }
  }, 100);
  try {
    await waitReady(port);
    const bytes = fs.statSync(csv).size;
    const beforeUpload = memory(server.pid!).rss;

    phase = "upload";
    const t0 = process.hrtime.bigint();
    const up = await request(
      port,
      "POST",
      `/api/upload?filename=${encodeURIComponent(path.basename(csv))}`,
      { "content-type": "application/octet-stream", "content-length": bytes },
      fs.createReadStream(csv, { highWaterMark: 1 << 20 }),
    );
    const uploadSeconds = since(t0);
    if (up.status !== 200) throw new Error(`upload failed (${up.status}): ${up.text.slice(0, 500)}`);
    const uploadId = (JSON.parse(up.text) as { result: { upload_id: string } }).result.upload_id;

    phase = "import";
    const t1 = process.hrtime.bigint();
    const imported = await request(
      port,
      "POST",
      `/api/upload/${uploadId}/import`,
      { "content-type": "application/json", accept: "application/x-ndjson" },
      JSON.stringify({ mode: "new", resource_id: "flights-upload" }),
    );
    const importSeconds = since(t1);
    const lines = imported.text.trim().split("\n").map((l) => JSON.parse(l) as { success?: boolean; result?: { rows: number }; error?: unknown });
    const last = lines.at(-1)!;
    if (!last.success) throw new Error(`import failed: ${JSON.stringify(last.error)}`);
    const rows = last.result!.rows;
    const vmHwm = memory(server.pid!).hwm;
    const total = uploadSeconds + importSeconds;
    return {
      rows,
      bytes,
      upload: { seconds: uploadSeconds, rowsPerSecond: Math.round(rows / uploadSeconds), megabytesPerSecond: bytes / 1e6 / uploadSeconds },
      import: { seconds: importSeconds, rowsPerSecond: Math.round(rows / importSeconds), progressLines: lines.length - 1 },
      total: { seconds: total, rowsPerSecond: Math.round(rows / total) },
      cli,
      ofCliRate: rows / total / cli.rowsPerSecond,
      memoryMb: { beforeUpload, peakDuringUpload: peak.upload, peakDuringImport: peak.import, vmHwm },
    };
  } finally {
    clearInterval(sampler);
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function formatUpload(u: UploadBench): string[] {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const row = (what: string, seconds: number, rate: number) => `  ${what.padEnd(34)} ${seconds.toFixed(1).padStart(7)} s ${n(rate).padStart(11)} rows/s`;
  return [
    `\nupload: ${n(u.rows)} rows, ${(u.bytes / 1e6).toFixed(0)} MB CSV, through a fresh \`npm run start:api\` server`,
    row("POST /api/upload (stream + preview)", u.upload.seconds, u.upload.rowsPerSecond) + `  (${u.upload.megabytesPerSecond.toFixed(0)} MB/s)`,
    row("POST /api/upload/<id>/import", u.import.seconds, u.import.rowsPerSecond) + `  (${u.import.progressLines} progress lines)`,
    row("upload + import", u.total.seconds, u.total.rowsPerSecond),
    row(`npm run import (same file)`, u.cli.seconds, u.cli.rowsPerSecond),
    `  upload + import runs at ${(u.ofCliRate * 100).toFixed(0)}% of npm run import's rate`,
    `  server memory: ${u.memoryMb.beforeUpload.toFixed(0)} MB before the upload, peak RSS ${u.memoryMb.peakDuringUpload.toFixed(0)} MB while uploading, ` +
      `${u.memoryMb.peakDuringImport.toFixed(0)} MB while importing; VmHWM ${u.memoryMb.vmHwm.toFixed(0)} MB`,
  ];
}
