import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TestSmtpServer {
  port: number;
  /** An SMTP_URL for it (plain SMTP on loopback, any login accepted). */
  url: string;
  /** What arrived, parsed, in order. */
  messages: ParsedMail[];
  /** While set, every mail is refused with this reply (e.g. 451 or 554). */
  refuseWith: { code: number; message: string } | null;
  /** While set, a mail's data is read but never answered: the sender waits mid-send. */
  hold: boolean;
  /** How many mails were held so. */
  held: number;
  /** Resolves with the first message (arrived or arriving) that matches, within `timeoutMs`. */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server), parsing what it accepts with mailparser. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const state: TestSmtpServer = {
    port: 0,
    url: "",
    messages,
    refuseWith: null,
    hold: false,
    held: 0,
    async waitFor(match, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching mail within ${timeoutMs} ms; arrived: ${messages.map((m) => `${m.subject} → ${addressesOf(m).join(",")}`).join("; ") || "none"}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, Math.min(left, 200));
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData(stream, _session, callback) {
      const refusal = state.refuseWith;
      if (state.hold) {
        state.held++;
        stream.resume();
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          messages.push(mail);
          for (const wake of [...waiters]) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
    logger: false,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://test:test@127.0.0.1:${state.port}`;
  return state;
}

/** The addresses a parsed mail was sent to. */
export function addressesOf(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((group) => group.value.map((a) => a.address ?? ""));
}

/** The first link in a mail's plain-text part that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = (mail.text ?? "").match(new RegExp(`${escaped}\\S*`));
  if (!match) throw new Error(`no link starting ${prefix} in: ${mail.text}`);
  return match[0];
}
