/** @type {import('next').NextConfig} */

// Next serves the explorer's pages; the API, dumps and security headers are lib/server's
// (started by lib/server/main.ts), so this stays small.
const nextConfig = {
  poweredByHeader: false,
};
export default nextConfig;
