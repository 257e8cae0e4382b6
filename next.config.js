/** @type {import('next').NextConfig} */
const nextConfig = {
  // The API owns /v1.0/ and friends (served before Next.js sees a request); never redirect slashes.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // A separate build folder lets parallel test runs build without overwriting each other.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  reactStrictMode: true,
  // Native modules and the Prisma driver adapter load from node_modules at run time, not from the bundle.
  // BullMQ (account deletion removes queued bulk URLs) forks and imports its sandboxed workers by path at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@node-rs/argon2", "bullmq"],
  // The build checks the dashboard's own code; `npm test` typechecks everything (tests, scripts, the API).
  typescript: { tsconfigPath: "tsconfig.next.json" },
  // Behind a proxy that does not pass the public host on, server actions from the public origin are still
  // this site's (read when the server starts; lib/env.ts has validated it).
  experimental: {
    serverActions: { allowedOrigins: process.env.SHARECOUNT_PUBLIC_URL ? [new URL(process.env.SHARECOUNT_PUBLIC_URL).host] : [] },
  },
};

export default nextConfig;
