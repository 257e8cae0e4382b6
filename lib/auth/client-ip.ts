/**
 * The header the dashboard's server sets from the socket's address, replacing any a client sent (see
 * lib/dashboard/next-server.ts); sign-in rate limits key on it.
 */
export const CLIENT_IP_HEADER = "x-sharecount-client-ip";
