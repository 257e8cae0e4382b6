import { SharecountError } from "../errors.ts";

export type MemberErrorCode = "forbidden" | "not_found" | "too_many_members" | "already_member" | "invite_closed" | "invalid_input";

/** Why a member or invite change was refused; the dashboard answers each with its status (MEMBER_ERROR_STATUS). */
export class MemberError extends SharecountError<MemberErrorCode> {
  static override readonly kind: string = "MemberError";
}

export const MEMBER_ERROR_STATUS: Record<MemberErrorCode, number> = {
  forbidden: 403,
  not_found: 404,
  too_many_members: 409,
  already_member: 409,
  invite_closed: 410,
  invalid_input: 422,
};

export const memberErrors = {
  forbidden: (message = "Your role in this account does not allow that.") => new MemberError("forbidden", message),
  notFound: (what: "member" | "invite") => new MemberError("not_found", `No such ${what} in this account.`),
  holder: () => new MemberError("forbidden", "This account is its holder's own sign-in: they stay its owner, and cannot leave it or be removed."),
  tooMany: (max: number) => new MemberError("too_many_members", `An account has at most ${max} members and open invites.`),
  alreadyMember: () => new MemberError("already_member", "That person is already a member of this account."),
  closed: (why: "used" | "expired" | "revoked") => new MemberError("invite_closed", `This invite was ${why === "used" ? "already used" : why}.`),
  invalid: (message: string) => new MemberError("invalid_input", message),
};
