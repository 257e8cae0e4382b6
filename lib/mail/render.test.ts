import { afterEach, expect, it, vi } from "vitest";
import { AsyncLocalStorage } from "node:async_hooks";
import { renderMail } from "./render.ts";

afterEach(() => vi.unstubAllEnvs());

it("renders once NODE_ENV turned to production after react was loaded, as it does under npm start (Next.js sets it)", async () => {
  vi.stubEnv("NODE_ENV", "production");
  const mail = await renderMail("verify_email", { link: "https://counts.example/verify-email?token=t0k3n", hours: 24 }, "https://counts.example");
  expect(mail.text).toContain("https://counts.example/verify-email?token=t0k3n");
  expect(mail.html).toContain("https://counts.example/verify-email?token=t0k3n");
});

it("renders a whole XHTML document and its plain text without AsyncLocalStorage, which would tax every later promise of the worker", async () => {
  const run = vi.spyOn(AsyncLocalStorage.prototype, "run");
  const enterWith = vi.spyOn(AsyncLocalStorage.prototype, "enterWith");
  try {
    const mail = await renderMail("verify_email", { link: "https://counts.example/verify-email?token=t0k3n", hours: 24 }, "https://counts.example");
    expect(mail.html.match(/<!DOCTYPE/gi)).toHaveLength(1);
    expect(mail.html).toMatch(/^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1\.0 Transitional\/\/EN"[^>]*><html[^>]*>.*<\/html>$/s);
    expect(mail.text).toContain("https://counts.example/verify-email?token=t0k3n");
    expect(mail.text).not.toMatch(/<[a-z]/i);
    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  } finally {
    run.mockRestore();
    enterWith.mockRestore();
  }
});
