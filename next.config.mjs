/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // `npm run dev` on 127.0.0.1 (the journeys' E2E_BASE_URL): let its hot reload connect
  allowedDevOrigins: ["127.0.0.1"],
  // NEXT_DIST_DIR lets several dev servers share a checkout (Next allows one per build directory)
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm test` type-checks the whole project itself (tsc, once the build has written .next/types)
  // and builds with BUILD_SKIP_TYPECHECK=1, so the same check does not run twice (scripts/test.mjs).
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIP_TYPECHECK === "1" },
};
export default nextConfig;
