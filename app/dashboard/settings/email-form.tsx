"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useChangeEmail } from "@/dashboard/client/hooks/use-email";

interface Props {
  email: string;
  confirmed: boolean;
  /** The address a change waits to be confirmed by, if any. */
  initialPending: string | null;
}

const inputClass = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-500";

/**
 * Changing the account's address: the new address gets a link that makes the change, the current one a notice,
 * and until the link is opened nothing changes. The password is asked so a session alone cannot do it.
 */
export function EmailForm({ email, confirmed, initialPending }: Props) {
  const change = useChangeEmail();
  const [pending, setPending] = useState(initialPending);
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const [checked, setChecked] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    change.reset();
    setChecked(true);
    if (!newEmail.trim() || !password) return;
    change.mutate(
      { email: newEmail, password },
      {
        onSuccess: (answer) => {
          setPending(answer.pending);
          setNewEmail("");
          setPassword("");
          setChecked(false);
        },
      },
    );
  }

  return (
    <Card title="Email address" className="mt-6">
      <p className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <span>
          Your account uses <strong className="break-all">{email}</strong>
        </span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${confirmed ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-900"}`}
          data-testid="email-status"
        >
          {confirmed ? "Confirmed" : "Not confirmed"}
        </span>
      </p>
      <div role="status" className="mb-3 text-sm">
        {pending && (
          <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-slate-700">
            Waiting for <strong className="break-all">{pending}</strong>: open the link we sent there. Until then your account keeps{" "}
            <span className="break-all">{email}</span>.
          </p>
        )}
      </div>
      <form onSubmit={submit} noValidate className="max-w-md space-y-4">
        <div>
          <label htmlFor="new-email" className="block text-sm font-medium">
            New email address
          </label>
          <input
            id="new-email"
            type="email"
            autoComplete="email"
            required
            value={newEmail}
            onChange={(event) => setNewEmail(event.target.value)}
            aria-invalid={checked && !newEmail.trim()}
            aria-describedby="new-email-hint"
            className={inputClass}
          />
          <p id="new-email-hint" className={`mt-1 text-xs ${checked && !newEmail.trim() ? "text-red-700" : "text-slate-500"}`}>
            {checked && !newEmail.trim() ? "Enter the new address." : "A link goes there; the change happens when it is opened."}
          </p>
        </div>
        <div>
          <label htmlFor="email-password" className="block text-sm font-medium">
            Your password
          </label>
          <input
            id="email-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={checked && !password}
            aria-describedby="email-password-hint"
            className={inputClass}
          />
          <p id="email-password-hint" className={`mt-1 text-xs ${checked && !password ? "text-red-700" : "text-slate-500"}`}>
            {checked && !password ? "Enter your password." : "The one you sign in with. An account that signs in with GitHub or Google sets one above first."}
          </p>
        </div>
        {change.isError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {change.error.message}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={change.isPending}>
          {change.isPending ? "Sending…" : "Change email address"}
        </Button>
      </form>
    </Card>
  );
}
