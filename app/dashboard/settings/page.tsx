import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current-account";
import { dashboard } from "@/lib/dashboard/context";
import { listSessions } from "@/lib/dashboard/sessions";
import { SettingsClient } from "./settings-client";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const account = await requireAccount();
  const [sessions, { passwordHash }] = await Promise.all([
    listSessions(account.id, account.sessionId),
    dashboard().prisma.account.findUniqueOrThrow({ where: { id: account.id }, select: { passwordHash: true } }),
  ]);
  // The server's clock renders "last seen …" the same on the server and while hydrating; the browser's takes over after.
  return <SettingsClient initialSessions={sessions} hasPassword={passwordHash !== null} serverNow={Date.now()} />;
}
