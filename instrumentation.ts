// When Next serves (`next start`, `next dev`): open and check the datastore and load the sample
// data into an empty one before the first request, as `npm start` does (lib/server-start.ts);
// and stamp each request with its peer's address, which Next does not give route handlers
// (lib/http/peer.ts), so anonymous clients take their own turns among expensive reads; and
// spend each API request's budget as it arrives, refusing one past it before Next does its work
// (lib/server/next-admission.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  (await import("./lib/http/peer")).stampPeerAddresses();
  (await import("./lib/server/next-admission")).admitBeforeNext();
  await (await import("./lib/server-start")).startDatastore();
}
