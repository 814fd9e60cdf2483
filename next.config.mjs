/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
};
export default nextConfig;
