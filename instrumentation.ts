// When Next serves (`next start`, `next dev`): open and check the datastore and load the sample
// data into an empty one before the first request, as `npm start` does (lib/server-start.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./lib/server-start")).startDatastore();
}
