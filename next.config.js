/** @type {import('next').NextConfig} */
const nextConfig = {
  // The API owns /v1.0/ and friends (served before Next.js sees a request); never redirect slashes.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
