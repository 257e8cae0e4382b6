import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addressesOf, startSmtpServer } from "../test/support/smtp.ts";
import { E2E_MAIL_HTTP_PORT, E2E_SMTP_PORT } from "./env";

/**
 * The e2e server's SMTP server (a real one on loopback, started by Playwright beside the app), and a small
 * HTTP reader of what it received, for specs: GET /messages?to=ADDRESS answers those messages as JSON.
 * POST /refuse?code=451 makes it refuse every mail until POST /accept.
 */
async function main() {
  const smtp = await startSmtpServer(E2E_SMTP_PORT);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sink");
    if (req.method === "POST" && url.pathname === "/refuse") {
      smtp.refuseWith = { code: Number(url.searchParams.get("code") ?? 451), message: "Try again later" };
      return res.writeHead(204).end();
    }
    if (req.method === "POST" && url.pathname === "/accept") {
      smtp.refuseWith = null;
      return res.writeHead(204).end();
    }
    if (url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      const messages = smtp.messages
        .filter((mail) => !to || addressesOf(mail).some((a) => a.toLowerCase() === to))
        .map((mail) => ({
          to: addressesOf(mail),
          from: mail.from?.text ?? null,
          subject: mail.subject ?? null,
          text: mail.text ?? "",
          html: typeof mail.html === "string" ? mail.html : "",
          messageId: mail.messageId ?? null,
          autoSubmitted: mail.headers.get("auto-submitted") ?? null,
        }));
      return res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(messages));
    }
    res.writeHead(404).end();
  });
  server.listen(E2E_MAIL_HTTP_PORT, "127.0.0.1");
  const stop = () => {
    server.close();
    void smtp.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
