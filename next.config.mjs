/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // `npm run dev` on 127.0.0.1 (the journeys' E2E_BASE_URL): let its hot reload connect
  allowedDevOrigins: ["127.0.0.1"],
  // NEXT_DIST_DIR lets several dev servers share a checkout (Next allows one per build directory)
  distDir: process.env.NEXT_DIST_DIR || ".next",
};
export default nextConfig;
