// Plain fetchers for the CKAN action API, usable outside React. The token goes only into the
// Authorization header: never into a URL, a query key or a log.
import { ApiError, errorFromBody } from "./errors";

export type Auth = { token: string | null };

function authHeaders(auth: Auth): Record<string, string> {
  return auth.token ? { Authorization: auth.token } : {};
}

/** POSTs `params` to /api/action/{action} and returns `result`, or throws an ApiError. */
export async function callAction<T>(
  action: string,
  params: object,
  auth: Auth,
  signal?: AbortSignal,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/action/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...authHeaders(auth) },
      body: JSON.stringify(params),
      signal,
      cache: "no-store",
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError("network", 0, e instanceof Error ? e.message : "Network error");
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // a non-JSON body (proxy error page, crash) is reported by status below
  }
  if (!response.ok || !body || (body as { success?: boolean }).success !== true) {
    throw errorFromBody(response.status, body);
  }
  return (body as { result: T }).result;
}

/** Fetches a dump with the token and hands it to the browser as a file download. */
export async function downloadDump(path: string, filename: string, auth: Auth): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { headers: authHeaders(auth), cache: "no-store" });
  } catch (e) {
    throw new ApiError("network", 0, e instanceof Error ? e.message : "Network error");
  }
  if (!response.ok) {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // dump errors may be plain text
    }
    throw errorFromBody(response.status, body);
  }
  saveBlob(await response.blob(), filename);
}

/** Hands a blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
