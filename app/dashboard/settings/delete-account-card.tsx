"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useDeleteAccount } from "@/dashboard/client/hooks/use-delete-account";

/** What goes with the account, said before and in the confirmation. */
const REMOVED =
  "your API key, sessions and sign-in links, whitelist, tracked URLs and their settings, bulk jobs and their results, imports and usage records";

/**
 * Settings → Delete account: the account's password confirms it (an account that signs in only with GitHub or
 * Google types its address instead); once deleted, the browser is signed out and leaves the dashboard.
 */
export function DeleteAccountCard({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Card title="Delete account" className="border-t-4 border-t-red-600">
      <p className="mb-3 text-sm text-slate-700">
        Deleting your account removes {REMOVED}. It cannot be undone: export your data first if you want to keep it. Counts
        the service observed for URLs stay, as they are shared with other accounts.
      </p>
      <Button variant="danger-secondary" onClick={() => setOpen(true)}>
        Delete account…
      </Button>
      {open && <DeleteDialog email={email} hasPassword={hasPassword} onClosed={() => setOpen(false)} />}
    </Card>
  );
}

function DeleteDialog({ email, hasPassword, onClosed }: { email: string; hasPassword: boolean; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteAccount();
  const [typed, setTyped] = useState("");

  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    remove.mutate(hasPassword ? { password: typed } : { email: typed }, {
      // A full load: the dashboard's pages and their data are gone with the session.
      onSuccess: () => window.location.assign("/account-deleted"),
    });
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="delete-account-title"
      aria-describedby="delete-account-description"
      // Closing while the deletion is under way would hide its outcome: wait for it.
      onCancel={(event) => remove.isPending && event.preventDefault()}
      onClose={onClosed}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:backdrop:bg-slate-50/70"
    >
      <form onSubmit={submit} noValidate>
        <h2 id="delete-account-title" className="text-lg font-semibold text-red-800">
          Delete your account?
        </h2>
        <div id="delete-account-description" className="mt-2 space-y-2 text-sm text-slate-700">
          <p>
            This deletes <strong>{email}</strong> and {REMOVED}, <strong>at once and for good</strong>. Every site or script
            using your API key gets an &ldquo;invalid API key&rdquo; error from then on.
          </p>
          <p>A last mail to your address confirms it.</p>
        </div>
        <label htmlFor="delete-account-confirm" className="mt-4 block text-sm font-medium">
          {hasPassword ? "Your password" : `Type your email address (${email}) to confirm`}
        </label>
        <input
          id="delete-account-confirm"
          type={hasPassword ? "password" : "email"}
          autoComplete={hasPassword ? "current-password" : "off"}
          required
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          aria-invalid={remove.isError}
          aria-describedby={remove.isError ? "delete-account-error" : undefined}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-500"
        />
        {remove.isError && (
          <p id="delete-account-error" role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {remove.error.message}
          </p>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button onClick={() => dialog.current?.close()} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={remove.isPending || typed.length === 0}>
            {remove.isPending ? "Deleting…" : "Delete my account"}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
