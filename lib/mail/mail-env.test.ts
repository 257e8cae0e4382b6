import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../env.ts";
import { mailSettings } from "./mail-env.ts";

const refusal = (source: Record<string, string>) => {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("mail configuration", () => {
  it("writes .eml files under data/mail from no-reply@localhost by default, with links to localhost:PORT", () => {
    expect(mailSettings(parseEnv({ PORT: "8080" }))).toEqual({ smtpUrl: null, from: "sharecount <no-reply@localhost>", dir: "data/mail", linkOrigin: "http://localhost:8080" });
    expect(parseEnv({}).PASSWORD_RESET_TTL_MINUTES).toBe(60);
  });

  it("takes its sender's host and its links' origin from SHARECOUNT_PUBLIC_URL", () => {
    const settings = mailSettings(parseEnv({ SHARECOUNT_PUBLIC_URL: "https://counts.example.com", SMTP_URL: "smtps://u:p@mail.example.com:465" }));
    expect(settings).toMatchObject({ smtpUrl: "smtps://u:p@mail.example.com:465", from: "sharecount <no-reply@counts.example.com>", linkOrigin: "https://counts.example.com" });
    expect(mailSettings(parseEnv({ MAIL_FROM: "Counts <counts@example.org>" })).from).toBe("Counts <counts@example.org>");
  });

  it("refuses what cannot send mail, naming the variable", () => {
    expect(refusal({ SMTP_URL: "http://mail.example.com" })).toMatch(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(refusal({ SMTP_URL: "mail.example.com:587" })).toMatch(/SMTP_URL:/);
    expect(refusal({ MAIL_FROM: "not an address" })).toMatch(/MAIL_FROM: must be one address/);
    expect(refusal({ MAIL_FROM: "a@example.com, b@example.com" })).toMatch(/MAIL_FROM:/);
    expect(refusal({ PASSWORD_RESET_TTL_MINUTES: "0" })).toMatch(/PASSWORD_RESET_TTL_MINUTES/);
    expect(refusal({ PASSWORD_RESET_TTL_MINUTES: "2000" })).toMatch(/PASSWORD_RESET_TTL_MINUTES: must be at most 1440/);
  });
});
