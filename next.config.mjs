/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // `npm run dev` on 127.0.0.1 (the journeys' E2E_BASE_URL): let its hot reload connect
  allowedDevOrigins: ["127.0.0.1"],
};
export default nextConfig;
