"use client";
// A refused token request, in the API's own words.
import { errorLines } from "@/lib/api-client";

export function ErrorMessages({ error }: { error: unknown }) {
  const messages = errorLines(error);
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/40 dark:text-red-100">
      {messages.map((m, i) => (
        <p key={i}>{m}</p>
      ))}
    </div>
  );
}
