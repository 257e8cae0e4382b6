import type http from "node:http";
import { createHash, timingSafeEqual } from "node:crypto";

/** Loopback peers: 127.0.0.0/8 and ::1, as IPv4 or IPv4-mapped IPv6. */
const LOOPBACK = /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$|^::1$/i;

/** Headers a reverse proxy adds: a request through one on this machine comes from loopback, but not from here. */
const FORWARDED = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * Who may read /metrics. Without a token only a client on this machine: the socket's own address is loopback
 * and no proxy forwarded the request. With one, whoever sends `Authorization: Bearer <token>`, and no one else.
 */
export function mayReadMetrics(req: http.IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return LOOPBACK.test(req.socket.remoteAddress ?? "") && FORWARDED.every((name) => req.headers[name] === undefined);
  const header = req.headers.authorization;
  if (header === undefined || !/^bearer /i.test(header)) return false;
  // Compared as digests: equal lengths, so the time taken says nothing of the token's length either.
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

const digest = (text: string) => createHash("sha256").update(text).digest();
