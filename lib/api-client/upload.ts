// The upload endpoint's three requests (docs/loading.md, "Uploading over HTTP"), usable outside React: send a
// file (streamed by the browser from disk, never read into memory), import it with progress read
// line by line, delete it. Errors arrive as ApiError with the server's message verbatim; the
// failures with no server answer (a lost connection) are worded in the reader's language by `t`.
import { english, type Translate } from "@/lib/i18n";
import { ApiError, errorFromBody } from "./errors";
import type { Auth } from "./fetch";

export const FIELD_TYPES = ["text", "int", "numeric", "float", "bool", "date", "time", "timestamp", "json"] as const;

export type UploadPreview = {
  upload_id: string;
  filename: string;
  size: number;
  format: string;
  columns: { id: string; type: string }[];
  records: unknown[][];
  notes: string[];
  sampled_rows: number;
};

export type ImportMode = "new" | "append" | "replace";

export type ImportRequest = {
  mode: ImportMode;
  resource_id?: string;
  name?: string;
  description?: string;
  private?: boolean;
  fields?: { from: string; id: string; type?: string }[];
  primary_key?: string[];
};

export type ImportProgress = {
  phase: "loading" | "indexing";
  rows: number;
  fraction: number;
  rows_per_second: number;
  seconds_left: number | null;
};

export type ImportResult = {
  resource_id: string;
  name: string;
  created: boolean;
  rows: number;
  fields: { id: string; type: string }[];
  format: string;
  notes: string[];
  seconds: number;
};

function abortError(t: Translate): DOMException {
  return new DOMException(t("upload.cancelled"), "AbortError");
}

/** Request 1: sends the file and resolves with the server's preview. `onProgress` gets bytes sent. */
export function sendUpload(
  file: File,
  auth: Auth,
  { onProgress, signal }: { onProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {},
  t: Translate = english,
): Promise<UploadPreview> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(t));
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/upload?filename=${encodeURIComponent(file.name)}`);
    if (auth.token) xhr.setRequestHeader("Authorization", auth.token);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // a non-JSON body is reported by its status
      }
      const ok = xhr.status === 200 && (body as { success?: boolean } | null)?.success === true;
      if (ok) resolve((body as { result: UploadPreview }).result);
      else reject(errorFromBody(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError("network", 0, t("upload.lostSending")));
    xhr.onabort = () => reject(abortError(t));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    // a File is streamed from disk by the browser
    xhr.send(file);
  });
}

/** Calls `onLine` for each non-empty line of a UTF-8 byte stream, the last one even without "\n". */
export async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const lines = buffered.split("\n");
    buffered = done ? "" : (lines.pop() ?? "");
    for (const line of lines) if (line.trim()) onLine(line);
    if (done) return;
  }
}

type FinalLine = { success: boolean; result?: ImportResult; error?: { __type?: string; message?: string } };

const STATUS_FOR_TYPE: Record<string, number> = { "Authorization Error": 403, "Not Found Error": 404, "Validation Error": 409 };

function parseLine(line: string): ({ progress?: ImportProgress } & Partial<FinalLine>) | null {
  try {
    const message: unknown = JSON.parse(line);
    return message !== null && typeof message === "object" ? message : null;
  } catch {
    return null;
  }
}

/** Request 2: imports the upload, reporting progress, and resolves with the final result. */
export async function importUpload(
  uploadId: string,
  request: ImportRequest,
  auth: Auth,
  { onProgress, signal }: { onProgress?: (p: ImportProgress) => void; signal?: AbortSignal } = {},
  t: Translate = english,
): Promise<ImportResult> {
  let response: Response;
  try {
    response = await fetch(`/api/upload/${encodeURIComponent(uploadId)}/import`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/x-ndjson", ...(auth.token ? { Authorization: auth.token } : {}) },
      body: JSON.stringify(request),
      signal,
      cache: "no-store",
    });
  } catch {
    // the browser's own words for it ("Failed to fetch") are in its language, not the reader's
    if (signal?.aborted) throw abortError(t);
    throw new ApiError("network", 0, t("upload.lostStarting"));
  }
  const streamed = response.ok && response.body && (response.headers.get("content-type") ?? "").includes("ndjson");
  if (!streamed) {
    const body: unknown = await response.json().catch(() => null);
    if (response.ok && (body as { success?: boolean } | null)?.success === true) return (body as { result: ImportResult }).result;
    throw errorFromBody(response.status, body);
  }
  const seen: { final?: FinalLine } = {};
  try {
    await readLines(response.body!, (line) => {
      const message = parseLine(line);
      if (!message) return; // not ours (a proxy's page, say): without our final line, "no answer"
      if (message.progress) onProgress?.(message.progress);
      else if (typeof message.success === "boolean") seen.final = message as FinalLine;
    });
  } catch {
    if (signal?.aborted) throw abortError(t);
    throw new ApiError("network", 0, t("upload.lostImporting"));
  }
  const answer = seen.final;
  if (!answer) throw new ApiError("server", 0, t("upload.noAnswer"));
  if (answer.success && answer.result) return answer.result;
  throw errorFromBody(STATUS_FOR_TYPE[answer.error?.__type ?? ""] ?? 500, answer);
}

/** Request 3: removes an upload that will not be imported. Resolves false when it was already gone. */
export async function deleteUpload(uploadId: string, auth: Auth): Promise<boolean> {
  const response = await fetch(`/api/upload/${encodeURIComponent(uploadId)}`, {
    method: "DELETE",
    headers: auth.token ? { Authorization: auth.token } : {},
    // still sent when the page is closing
    keepalive: true,
    cache: "no-store",
  });
  if (response.ok) return true;
  if (response.status === 404) return false;
  throw errorFromBody(response.status, await response.json().catch(() => null));
}
