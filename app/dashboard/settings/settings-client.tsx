"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { SessionSummary } from "@/lib/sessions/sessions";
import { formatTimeAgo } from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { useChangePassword } from "@/dashboard/client/hooks/use-password";
import { MIN_PASSWORD_LENGTH, PASSWORD_HINT } from "@/lib/accounts/password-limits";
import { useSessions, useSignOutSessions } from "@/dashboard/client/hooks/use-sessions";
import type { TrackingSettings } from "@/dashboard/client/hooks/use-tracking-settings";
import { TrackingCard } from "./tracking-card";
import { NetworksCard } from "./networks-card";

interface Props {
  initialSessions: SessionSummary[];
  hasPassword: boolean;
  tracking: TrackingSettings;
  serverNow: number;
}

export function SettingsClient({ initialSessions, hasPassword, tracking, serverNow }: Props) {
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Settings</h1>
      <NetworksCard />
      <TrackingCard initial={tracking} />
      <PasswordCard hasPassword={hasPassword} />
      <SessionsCard initialSessions={initialSessions} serverNow={serverNow} />
    </div>
  );
}


const inputClass = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-500";

function PasswordCard({ hasPassword: initiallyHasPassword }: { hasPassword: boolean }) {
  const change = useChangePassword();
  const [hasPassword, setHasPassword] = useState(initiallyHasPassword);
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [checked, setChecked] = useState(false);
  const [done, setDone] = useState("");

  // Checked here first so mistakes show beside their field; the server checks the same again.
  const tooShort = newPassword.length < MIN_PASSWORD_LENGTH;
  const mismatch = newPassword !== confirmPassword;

  function submit(event: FormEvent) {
    event.preventDefault();
    // Each attempt is answered afresh: the last one's error must not stand for this one.
    change.reset();
    setChecked(true);
    setDone("");
    if (tooShort || mismatch || (hasPassword && !currentPassword)) return;
    change.mutate(
      { currentPassword: hasPassword ? currentPassword : undefined, newPassword, confirmPassword },
      {
        onSuccess: ({ otherSessionsSignedOut }) => {
          setCurrentPassword("");
          setNewPassword("");
          setConfirmPassword("");
          setChecked(false);
          setHasPassword(true);
          setDone(
            `Password changed. You are still signed in on this device${
              otherSessionsSignedOut > 0 ? `; ${otherSessionsSignedOut === 1 ? "1 other session was" : `${otherSessionsSignedOut} other sessions were`} signed out` : ""
            }.`,
          );
        },
      },
    );
  }

  return (
    <Card title={hasPassword ? "Change password" : "Set a password"}>
      {!hasPassword && (
        <p className="mb-3 text-sm text-slate-600">You sign in with GitHub or Google. A password lets you sign in with your email as well.</p>
      )}
      <form onSubmit={submit} noValidate className="max-w-md space-y-4">
        {hasPassword && (
          <div>
            <label htmlFor="current-password" className="block text-sm font-medium">
              Current password
            </label>
            <input
              id="current-password"
              type="password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onChange={(event) => setCurrentPassword(event.target.value)}
              aria-invalid={checked && !currentPassword}
              aria-describedby={checked && !currentPassword ? "current-password-error" : undefined}
              className={inputClass}
            />
            {checked && !currentPassword && (
              <p id="current-password-error" className="mt-1 text-xs text-red-700">
                Enter your current password.
              </p>
            )}
          </div>
        )}
        <div>
          <label htmlFor="new-password" className="block text-sm font-medium">
            New password
          </label>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={newPassword}
            onChange={(event) => setNewPassword(event.target.value)}
            aria-invalid={checked && tooShort}
            aria-describedby="new-password-hint"
            className={inputClass}
          />
          <p id="new-password-hint" className={`mt-1 text-xs ${checked && tooShort ? "text-red-700" : "text-slate-500"}`}>
            {PASSWORD_HINT}
          </p>
        </div>
        <div>
          <label htmlFor="confirm-password" className="block text-sm font-medium">
            Confirm new password
          </label>
          <input
            id="confirm-password"
            type="password"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.target.value)}
            aria-invalid={checked && mismatch}
            aria-describedby={checked && mismatch ? "confirm-password-error" : undefined}
            className={inputClass}
          />
          {checked && mismatch && (
            <p id="confirm-password-error" className="mt-1 text-xs text-red-700">
              The two new passwords differ.
            </p>
          )}
        </div>
        {change.isError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {change.error.message}
          </p>
        )}
        <p role="status" className="text-sm text-emerald-800">
          {done}
        </p>
        <Button type="submit" variant="primary" disabled={change.isPending}>
          {change.isPending ? "Saving…" : hasPassword ? "Change password" : "Set password"}
        </Button>
      </form>
    </Card>
  );
}

function SessionsCard({ initialSessions, serverNow }: { initialSessions: SessionSummary[]; serverNow: number }) {
  const sessions = useSessions(initialSessions);
  const signOut = useSignOutSessions();
  const now = useNow() ?? serverNow;
  const [notice, setNotice] = useState("");
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  function signOutSession(target: { id: string } | "others", done: string) {
    setNotice("");
    signOut.mutate(target, { onSuccess: () => setNotice(done) });
  }

  return (
    <Card
      title="Signed-in devices"
      actions={
        <Button onClick={() => signOutSession("others", "Signed out everywhere else.")} disabled={others.length === 0 || signOut.isPending}>
          Sign out everywhere else
        </Button>
      }
    >
      <p className="mb-3 text-sm text-slate-600">A device you sign out here is signed out the next time it loads a page.</p>
      {sessions.data ? (
        <>
          <ul className="divide-y divide-slate-100" aria-label="Sessions">
            {sessions.data.map((session) => {
              const lastSeen = formatTimeAgo(Date.parse(session.lastSeenAt), now);
              return (
                <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="session">
                  <div>
                    <p className="font-medium">
                      {session.device}
                      {session.current && (
                        <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">This device</span>
                      )}
                    </p>
                    <p className="text-sm text-slate-600">
                      Last seen <time dateTime={session.lastSeenAt}>{lastSeen}</time> · signed in{" "}
                      <time dateTime={session.createdAt}>{formatTimeAgo(Date.parse(session.createdAt), now)}</time>
                    </p>
                  </div>
                  {!session.current && (
                    <Button
                      onClick={() => signOutSession({ id: session.id }, `Signed out ${session.device}.`)}
                      disabled={signOut.isPending}
                      aria-label={`Sign out ${session.device}, last seen ${lastSeen}`}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          {others.length === 0 && <EmptyState>No other device is signed in.</EmptyState>}
        </>
      ) : sessions.isError ? (
        <ErrorState message={sessions.error.message} onRetry={() => void sessions.refetch()} />
      ) : (
        <LoadingState label="Loading sessions…" />
      )}
      {signOut.isError && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {signOut.error.message}
        </p>
      )}
      <p role="status" className="mt-2 text-sm text-slate-700">
        {notice}
      </p>
    </Card>
  );
}
