import { afterEach, expect, it, vi } from "vitest";
import { renderMail } from "./render.ts";

afterEach(() => vi.unstubAllEnvs());

it("renders once NODE_ENV turned to production after react was loaded, as it does under npm start (Next.js sets it)", async () => {
  vi.stubEnv("NODE_ENV", "production");
  const mail = await renderMail("verify_email", { link: "https://counts.example/verify-email?token=t0k3n", hours: 24 }, "https://counts.example");
  expect(mail.text).toContain("https://counts.example/verify-email?token=t0k3n");
  expect(mail.html).toContain("https://counts.example/verify-email?token=t0k3n");
});
