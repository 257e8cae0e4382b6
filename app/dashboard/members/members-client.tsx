"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FailureNote } from "@/components/ui/states";
import { Card } from "@/components/ui/card";
import { useInvite, useMembers, useRemoveMember, useResendInvite, useRevokeInvite, useSetRole } from "@/dashboard/client/hooks/use-members";
import type { MembersView } from "@/dashboard/server/members/members-view";
import { allows, MAX_MEMBERS, ROLE_LABELS, ROLE_SUMMARIES, ROLES, type Role } from "@/lib/members/roles";

const dateLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const selectClass = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** The roles someone with `role` may give: the owner role only by an owner. */
const grantable = (role: Role) => ROLES.filter((r) => r !== "owner" || allows(role, "ownership"));

export function MembersClient({ initial, account }: { initial: MembersView; account: string }) {
  const { data: view } = useMembers(initial);
  const manage = allows(view.self.role, "members");
  const count = view.members.length + view.invites.filter((i) => i.state === "open").length;
  return (
    <>
      <p className="text-sm text-slate-600">
        People who work in <strong className="break-all">{account}</strong>. Your role here is <strong>{ROLE_LABELS[view.self.role]}</strong>:{" "}
        {ROLE_SUMMARIES[view.self.role]}.
      </p>
      <MemberList view={view} manage={manage} />
      {manage && <InviteForm role={view.self.role} full={count >= MAX_MEMBERS} />}
      {view.invites.length > 0 && <InviteList view={view} manage={manage} />}
    </>
  );
}

function MemberList({ view, manage }: { view: MembersView; manage: boolean }) {
  const setRole = useSetRole();
  const remove = useRemoveMember();
  const [confirming, setConfirming] = useState<string | null>(null);
  const owner = allows(view.self.role, "ownership");
  return (
    <Card title={`${view.members.length} of ${MAX_MEMBERS} members`}>
      <ul className="divide-y divide-slate-200" data-testid="member-list">
        {view.members.map((member) => {
          const self = member.userId === view.self.userId;
          const mayChange = manage && !member.holder && (member.role !== "owner" || owner);
          const removable = !member.holder && (self || mayChange);
          return (
            <li key={member.userId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-testid="member">
              <div className="min-w-0 flex-1">
                <p className="break-all font-medium">
                  {member.email} {self && <span className="whitespace-nowrap text-sm font-normal text-slate-500">(you)</span>}
                </p>
                <p className="text-xs text-slate-500">
                  {member.holder ? "Holder of the account · " : ""}Joined {dateLabel.format(new Date(member.joinedAt))}
                </p>
              </div>
              {mayChange ? (
                <select
                  aria-label={`Role of ${member.email}`}
                  className={selectClass}
                  value={member.role}
                  disabled={setRole.isPending}
                  onChange={(event) => setRole.mutate({ userId: member.userId, role: event.target.value as Role })}
                >
                  {grantable(view.self.role).map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </option>
                  ))}
                </select>
              ) : (
                <span className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700">{ROLE_LABELS[member.role]}</span>
              )}
              {removable &&
                (confirming === member.userId ? (
                  <span className="flex gap-2">
                    <Button onClick={() => setConfirming(null)}>Cancel</Button>
                    <Button
                      variant="danger"
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(member.userId, { onSuccess: () => (self ? window.location.assign("/dashboard") : setConfirming(null)) })
                      }
                    >
                      {self ? "Leave the account" : "Remove"}
                    </Button>
                  </span>
                ) : (
                  <Button variant="danger-secondary" onClick={() => setConfirming(member.userId)}>
                    {self ? "Leave" : "Remove"}
                  </Button>
                ))}
            </li>
          );
        })}
      </ul>
      <FailureNote error={setRole.error ?? remove.error} />
    </Card>
  );
}

function InviteForm({ role, full }: { role: Role; full: boolean }) {
  const invite = useInvite();
  const ids = { email: useId(), role: useId() };
  const [email, setEmail] = useState("");
  const [chosen, setChosen] = useState<Role>("developer");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role: chosen }, { onSuccess: () => setEmail("") });
  };
  return (
    <Card title="Invite someone">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-60">
          <label htmlFor={ids.email} className="block text-sm font-medium">
            Email address
          </label>
          <input
            id={ids.email}
            type="email"
            required
            maxLength={320}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2"
          />
        </div>
        <div>
          <label htmlFor={ids.role} className="block text-sm font-medium">
            Role
          </label>
          <select id={ids.role} value={chosen} onChange={(event) => setChosen(event.target.value as Role)} className={`${selectClass} mt-1 block py-2`}>
            {grantable(role).map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={invite.isPending || full}>
          {invite.isPending ? "Sending…" : "Send invite"}
        </Button>
      </form>
      <p className="mt-2 text-xs text-slate-500">
        {ROLE_LABELS[chosen]}: {ROLE_SUMMARIES[chosen]}. The mailed link works once, for 7 days.
      </p>
      {full && <p className="mt-2 text-sm text-amber-800">This account has {MAX_MEMBERS} members and open invites: remove one first.</p>}
      {invite.isSuccess && <p role="status" className="mt-2 text-sm text-green-800">Invite sent.</p>}
      <FailureNote error={invite.error} />
    </Card>
  );
}

function InviteList({ view, manage }: { view: MembersView; manage: boolean }) {
  const resend = useResendInvite();
  const revoke = useRevokeInvite();
  return (
    <Card title="Invites">
      <ul className="divide-y divide-slate-200" data-testid="invite-list">
        {view.invites.map((invite) => (
          <li key={invite.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-testid="invite">
            <div className="min-w-0 flex-1">
              <p className="break-all font-medium">{invite.email}</p>
              <p className="text-xs text-slate-500">
                {ROLE_LABELS[invite.role]} · {invite.state === "expired" ? "expired" : "expires"} {dateLabel.format(new Date(invite.expiresAt))}
                {invite.invitedBy ? ` · invited by ${invite.invitedBy}` : ""}
              </p>
            </div>
            {manage && (
              <span className="flex gap-2">
                <Button onClick={() => resend.mutate(invite.id)} disabled={resend.isPending}>
                  Resend
                </Button>
                <Button variant="danger-secondary" onClick={() => revoke.mutate(invite.id)} disabled={revoke.isPending}>
                  Revoke
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
      <FailureNote error={resend.error ?? revoke.error} />
    </Card>
  );
}
