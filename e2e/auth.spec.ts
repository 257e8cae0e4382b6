import type { APIRequestContext, APIResponse, Cookie, Page, Response } from "@playwright/test";
import { E2E_BASE_URL } from "./env";
import { admin, api, captureAction, createAccount, expect, replayAction, signIn, signOut, test, testClientAddress, withDatabase } from "./fixtures";
import { dashboardPages, dashboardRoutes, MUTATIONS } from "./routes";

/**
 * Sign-up, sign-in and sign-out with database sessions, what a signed-out browser may reach, the sign-in
 * form's answers and rate limit, and the session cookie's and the API key's safety.
 */

const SESSION_COOKIE = "authjs.session-token";
function cookieHeader(cookies: Cookie[]): string {
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

/** The form's own message (Next's route announcer is an empty role=alert element too). */
function formAlert(page: Page) {
  return page.locator("form").getByRole("alert");
}

/** The field is marked invalid and names its reason, shown at the field, by aria-describedby. */
async function expectFieldError(page: Page, label: string, id: string, reason: string | RegExp): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAttribute("aria-describedby", new RegExp(`(^| )${id}( |$)`));
  await expect(page.locator(`#${id}`)).toHaveText(reason);
}

/** Submits the sign-in form and waits for the server action's answer (the message may be the same as before). */
async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await answered;
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
}

test.describe("sign up", () => {
  test("creates a free account with a password and lands on the dashboard", async ({ page }) => {
    // A client address of its own: sign-ups are limited per address, and every test's browser is 127.0.0.1.
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": testClientAddress() });
    const email = `e2e-signup-${Date.now().toString(36)}-${process.pid}@example.com`;
    const password = "a-long-enough-password";
    await page.goto("/sign-up");
    await expect(page.getByRole("heading", { name: "Create a free account" })).toBeVisible();

    // Too short a password is refused in place, with the reason at the field; the email stays, the password does not.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(formAlert(page)).toHaveText("Use at least 10 characters.");
    await expectFieldError(page, "Password", "password-error", "Use at least 10 characters.");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page).toHaveURL(/\/sign-up$/);
    expect(() => admin("account:show", "--email", email)).toThrow();
    // A common password is refused however long, saying why (it was accepted before the strength rule).
    await page.getByLabel("Password").fill("password12");
    await page.getByRole("button", { name: "Create account" }).click();
    await expectFieldError(page, "Password", "password-error", /one of the most common passwords/);
    await expect(page.getByLabel("Email")).toHaveValue(email);
    expect(() => admin("account:show", "--email", email)).toThrow();
    // An address that is not one is refused at its own field, and kept as typed to be corrected.
    await page.getByLabel("Email").fill("not-an-address");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expectFieldError(page, "Email", "email-error", /valid email address/);
    await expect(page.getByLabel("Email")).toHaveValue("not-an-address");
    await expect(page.getByLabel("Email")).toBeFocused();
    // So is one made of the address's name: the first guess of anyone who knows it.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`${email.split("@")[0]}!1`);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(formAlert(page)).toHaveText("Choose a password that does not contain your email address.");
    expect(() => admin("account:show", "--email", email)).toThrow();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("account-email")).toHaveText(email);

    const shown = admin("account:show", "--email", email);
    expect(shown).toMatchObject({ email, plan: "free", has_password: true });
    expect((shown.quota as Record<string, unknown>).allocated_today).toBe(500);

    // The same email again: refused without saying whether it is taken.
    const other = await page.context().browser()!.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": testClientAddress() } });
    try {
      const second = await other.newPage();
      await second.goto("/sign-up");
      await second.getByLabel("Email").fill(email.toUpperCase());
      await second.getByLabel("Password").fill("another-long-password");
      await second.getByRole("button", { name: "Create account" }).click();
      await expect(formAlert(second)).toContainText("Could not create an account with this email");
      await expect(second).toHaveURL(/\/sign-up$/);
    } finally {
      await other.close();
    }
  });
});

test.describe("sign up, as an attacker would", () => {
  /** The sign-up form's server action, captured once (a too-short password: nothing is created, no limit is taken). */
  async function signUpAction(page: Page) {
    return captureAction(page, "/sign-up", async () => {
      await page.goto("/sign-up");
      await page.getByLabel("Email").fill("capture-sign-up@example.com");
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
    });
  }
  const PASSWORD = "a-long-enough-password";
  const answer = async (response: APIResponse) => {
    const body = await response.text();
    if (response.status() >= 500) return `HTTP ${response.status()}`;
    if (response.headers()["x-action-redirect"]?.includes("/dashboard")) return "created";
    for (const message of ["Could not create an account with this email", "Too many new accounts"]) {
      if (body.includes(message)) return message;
    }
    return `unexpected ${response.status()}: ${body.slice(0, 200)}`;
  };
  const accountsWithEmail = (email: string) =>
    withDatabase((db) => db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM account WHERE email = ?").get(email)!.n);

  test("is limited to 5 new accounts an hour per client address", async ({ page }) => {
    const action = await signUpAction(page);
    const address = testClientAddress();
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) {
      const email = `e2e-burst-${Date.now().toString(36)}-${i}@example.com`;
      answers.push(await answer(await replayAction(page.request, action, { "capture-sign-up@example.com": email, short: PASSWORD }, address)));
    }
    expect(answers).toEqual([...Array(5).fill("created"), "Too many new accounts", "Too many new accounts"]);
    // Another address is not held back by this one.
    const other = `e2e-other-${Date.now().toString(36)}@example.com`;
    expect(await answer(await replayAction(page.request, action, { "capture-sign-up@example.com": other, short: PASSWORD }, testClientAddress()))).toBe("created");
  });

  test("refuses an email with a control character or over 254 characters, and stores nothing", async ({ page }) => {
    const action = await signUpAction(page);
    const stamp = Date.now().toString(36);
    for (const [email, message] of [
      [`nul\u0000${stamp}@example.com`, "Enter a valid email address."],
      [`bell${stamp}@example.com\u0007`, "Enter a valid email address."],
      [`${"a".repeat(250)}@example.com`, "An email address has at most 254 characters."],
    ] as const) {
      const response = await replayAction(page.request, action, { "capture-sign-up@example.com": email, short: PASSWORD }, testClientAddress());
      expect(response.status(), JSON.stringify(email)).toBe(200);
      expect(await response.text(), JSON.stringify(email)).toContain(message);
      expect(accountsWithEmail(email.toLowerCase())).toBe(0);
    }
    const control = withDatabase((db) => db.prepare<[], { n: number }>("SELECT count(*) AS n FROM account WHERE email GLOB '*[' || char(1) || '-' || char(31) || ']*'").get()!.n);
    expect(control, "accounts with a control character in the email").toBe(0);
  });

  test("8 simultaneous sign-ups with one new email make one account; the others get the ordinary message", async ({ page }) => {
    const action = await signUpAction(page);
    const email = `e2e-race-${Date.now().toString(36)}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => answer(await replayAction(page.request, action, { "capture-sign-up@example.com": email, short: PASSWORD }, testClientAddress()))),
    );
    expect(answers.sort()).toEqual(["Could not create an account with this email", ...Array(6).fill("Could not create an account with this email"), "created"].sort());
    expect(accountsWithEmail(email)).toBe(1);
  });
});

test.describe("sign in and out", () => {
  test("signing in sets an HttpOnly, SameSite=Lax session cookie; signing out deletes the session", async ({ page, browser, account }) => {
    await signIn(page, account);
    await expect(page.getByTestId("account-email")).toHaveText(account.email);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === SESSION_COOKIE);
    expect(session, `a ${SESSION_COOKIE} cookie`).toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe("Lax");
    expect(session!.path).toBe("/");
    expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION_COOKIE);

    // Signed in, the sign-in page sends you on to the dashboard.
    await page.goto("/sign-in");
    await expect(page).toHaveURL(/\/dashboard$/);

    // The cookie works in another browser (so the check after sign-out is a real one).
    const replay = async () => {
      const context = await browser.newContext({ baseURL: E2E_BASE_URL });
      try {
        await context.addCookies(cookies);
        const other = await context.newPage();
        await other.goto("/dashboard");
        return other.url();
      } finally {
        await context.close();
      }
    };
    expect(new URL(await replay()).pathname).toBe("/dashboard");

    await signOut(page);
    await expect(page).toHaveURL(/\/sign-in$/);
    expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/sign-in$/);

    // The session row is gone: the saved cookie no longer signs anyone in.
    expect(new URL(await replay()).pathname).toBe("/sign-in");
  });
});

test.describe("signed out", () => {
  test("dashboard pages redirect to sign-in, which will send the browser back to them", async ({ page }) => {
    const pages = [...new Set(["/dashboard", "/dashboard/usage", "/dashboard/bulk", "/dashboard/settings", ...dashboardPages()])];
    for (const pathname of pages) {
      await page.goto(pathname);
      const back = pathname === "/dashboard" ? "" : `?next=${encodeURIComponent(pathname)}`;
      await expect(page, `${pathname} without a session`).toHaveURL(`${E2E_BASE_URL}/sign-in${back}`);
    }
  });

  test("/ is a landing page: what the service is, sign in or create an account, and a query to copy", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    await expect(page.getByRole("heading", { name: "Social share counts for any URL", level: 1 })).toBeVisible();
    const example = page.getByTestId("api-example");
    await expect(example).toContainText(`curl "${E2E_BASE_URL}/v1.1/?url=https%3A%2F%2Fexample.com%2F&apikey=YOUR_API_KEY"`);
    await expect(example).toContainText('"Facebook":{"total_count":168');
    await page.getByRole("link", { name: "Create a free account" }).click();
    await expect(page).toHaveURL(/\/sign-up$/);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    // The example's query is the real API's: it answers (without a key, with the error object a client would see).
    const answer = await fetch(`${E2E_BASE_URL}/v1.1/?url=${encodeURIComponent("https://example.com/")}&apikey=YOUR_API_KEY`);
    expect(((await answer.json()) as { Type: string }).Type).toBe("invalid_api_key");
  });

  test("/ sends a signed-in browser to the dashboard", async ({ page, account }) => {
    await signIn(page, account);
    await page.goto("/");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a forged or unknown session cookie is no session", async ({ page, context }) => {
    await context.addCookies([{ name: SESSION_COOKIE, value: "0".repeat(64), url: E2E_BASE_URL }]);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("dashboard API routes answer 401 JSON without a session", async ({ request }) => {
    const routes = dashboardRoutes();
    expect(routes.length, "app/api/dashboard has route files").toBeGreaterThan(0);
    const checked: string[] = [];
    for (const route of routes) {
      for (const method of route.methods) {
        // A same-origin request, so only the missing session can refuse it.
        const response = await request.fetch(route.path, {
          method,
          headers: { Origin: E2E_BASE_URL, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
          data: MUTATIONS.includes(method) ? {} : undefined,
          maxRedirects: 0,
        });
        expect(response.status(), `${method} ${route.path}`).toBe(401);
        expect(response.headers()["content-type"], `${method} ${route.path}`).toContain("application/json");
        expect(await response.json(), `${method} ${route.path}`).toMatchObject({ error: "signed_out" });
        checked.push(`${method} ${route.path}`);
      }
    }
    test.info().annotations.push({ type: "routes", description: checked.join(", ") });
  });
});

test.describe("deep links", () => {
  test("after signing out, a deep link leads back to itself once signed in", async ({ page, account }) => {
    await signIn(page, account);
    await signOut(page);
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/dashboard/usage?days=90");
    await expect(page).toHaveURL(`${E2E_BASE_URL}/sign-in?next=${encodeURIComponent("/dashboard/usage?days=90")}`);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${E2E_BASE_URL}/dashboard/usage?days=90`);
    await expect(page.getByRole("button", { name: "90 days" })).toHaveAttribute("aria-pressed", "true");
    // Signed in already, the sign-in page sends the browser straight on.
    await page.goto(`/sign-in?next=${encodeURIComponent("/dashboard/settings")}`);
    await expect(page).toHaveURL(`${E2E_BASE_URL}/dashboard/settings`);
  });

  test("only this site's dashboard: any other next leads to the overview", async ({ page }) => {
    const account = createAccount("free");
    for (const next of ["https://evil.example/", "//evil.example/dashboard", "/\\evil.example", "/dashboard/../api/dashboard/key", "/sign-up"]) {
      // Off the overview first: its queries, answered 401 once the cookies are gone, would send it to sign-in
      // in the middle of the next navigation.
      await page.goto("about:blank");
      await page.context().clearCookies();
      await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page, next).toHaveURL(`${E2E_BASE_URL}/dashboard`);
    }
  });
});

test.describe("the sign-in form", () => {
  test("a wrong password and an unknown email get the same answer", async ({ page }) => {
    const account = createAccount("free");
    await page.goto("/sign-in");
    await submitSignIn(page, account.email, "not-the-password");
    await expect(formAlert(page)).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByLabel("Email")).toHaveValue(account.email);

    await submitSignIn(page, `nobody-${Date.now().toString(36)}@example.com`, "not-the-password");
    await expect(formAlert(page)).toHaveText("Wrong email or password.");
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("is rate limited per email after 5 attempts, even with the right password", async ({ page }) => {
    // Its own account, so no other test meets the limit.
    const account = createAccount("free");
    await page.goto("/sign-in");
    for (let attempt = 1; attempt <= 5; attempt++) {
      await submitSignIn(page, account.email, `wrong-${attempt}`);
      await expect(formAlert(page), `attempt ${attempt}`).toHaveText("Wrong email or password.");
    }
    await submitSignIn(page, account.email, account.password);
    await expect(formAlert(page)).toContainText("Too many sign-in attempts");
    await expect(page).toHaveURL(/\/sign-in$/);
    expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  test("holds under concurrency: 50 simultaneous attempts for one email check at most 5 passwords", async ({ page }) => {
    const signInAction = await captureAction(page, "/sign-in", async () => {
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill("capture@example.com");
      await page.getByLabel("Password").fill("CAPTURED-PASSWORD");
      await page.getByRole("button", { name: "Sign in" }).click();
    });
    /** Sends `passwords` for the account at once from `address`; what each attempt was answered. */
    const burst = async (account: { email: string }, passwords: string[], address: string) => {
      const responses = await Promise.all(
        passwords.map((password) =>
          replayAction(page.request, signInAction, { "capture@example.com": account.email, "CAPTURED-PASSWORD": password }, address),
        ),
      );
      return Promise.all(
        responses.map(async (response) => {
          const body = await response.text();
          if (response.headers()["x-action-redirect"]?.includes("/dashboard")) return "signed in";
          if (body.includes("Wrong email or password.")) return "checked, wrong";
          if (body.includes("Too many sign-in attempts")) return "refused";
          return `unexpected ${response.status()}: ${body.slice(0, 200)}`;
        }),
      );
    };
    const tally = (answers: string[]) => answers.reduce<Record<string, number>>((t, a) => ({ ...t, [a]: (t[a] ?? 0) + 1 }), {});

    // 50 wrong passwords at once: 5 are checked, 45 refused before any check; then the right one is refused too.
    const first = createAccount("free");
    const address = testClientAddress();
    const wrong = Array.from({ length: 50 }, (_, i) => `wrong-password-${i}`);
    expect(tally(await burst(first, wrong, address))).toEqual({ "checked, wrong": 5, refused: 45 });
    expect(await burst(first, [first.password], address)).toEqual(["refused"]);

    // The right password sent first in such a burst: at most 5 wrong ones are checked all the same (a success
    // gives its own attempt back, and only that one).
    const second = createAccount("free");
    const answers = tally(await burst(second, [second.password, ...wrong.slice(0, 49)], testClientAddress()));
    expect(answers["checked, wrong"] ?? 0).toBeLessThanOrEqual(5);
    expect(answers["signed in"] ?? 0).toBeLessThanOrEqual(1);
    expect((answers["checked, wrong"] ?? 0) + (answers["signed in"] ?? 0) + (answers.refused ?? 0)).toBe(50);
  });
});

test.describe("a signed-in browser", () => {
  test("never receives the API key with the dashboard's pages, scripts or data, and cross-site mutations are refused", async ({
    page,
    account,
    request,
  }) => {
    await signIn(page, account);

    await test.step("the API key is in no page, script or data response", async () => {
      const pages = dashboardPages();
      expect(pages).toContain("/dashboard");
      const seen: { url: string; type: string }[] = [];
      const pending: Promise<void>[] = [];
      const leaks: string[] = [];
      const inspect = (response: Response) => {
        pending.push(
          (async () => {
            const body = await response.text().catch(() => "");
            seen.push({ url: response.url(), type: response.request().resourceType() });
            if (body.includes(account.apiKey)) leaks.push(`${response.request().resourceType()} ${response.url()}`);
          })(),
        );
      };
      page.on("response", inspect);
      for (const pathname of pages) {
        await page.goto(pathname);
        await page.waitForLoadState("networkidle");
      }
      page.off("response", inspect);
      await Promise.all(pending);
      expect(seen.some((s) => s.type === "script")).toBe(true);

      // The same, fetched the plain way: every page's HTML and every script it references.
      const scripts = new Set<string>();
      for (const pathname of pages) {
        const response = await page.request.get(pathname);
        expect(response.status(), pathname).toBe(200);
        const html = await response.text();
        expect(html, `${pathname} HTML`).toContain("<html");
        if (html.includes(account.apiKey)) leaks.push(`HTML ${pathname}`);
        for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) scripts.add(new URL(match[1]!.replaceAll("&amp;", "&"), E2E_BASE_URL).href);
      }
      expect(scripts.size).toBeGreaterThan(0);
      for (const src of scripts) {
        const body = await (await page.request.get(src)).text();
        if (body.includes(account.apiKey)) leaks.push(`script ${src}`);
      }
      expect(leaks, "responses that contain the API key").toEqual([]);

      // Control: the string searched for is the account's real, working key.
      expect((await api("/v1.0/quota", account.apiKey)).status).toBe(200);
      test.info().annotations.push({ type: "checked", description: `${seen.length} responses, ${scripts.size} scripts, pages ${pages.join(" ")}` });
    });

    await test.step("cross-site mutations get 403 before anything happens", async () => {
      const cookie = cookieHeader(await page.context().cookies());
      const mutations = dashboardRoutes().flatMap((r) => r.methods.filter((m) => MUTATIONS.includes(m)).map((method) => ({ method, path: r.path })));
      // Making a key is the one that matters most: it would hand the site a working key.
      const create = mutations.find((m) => m.path === "/api/dashboard/keys" && m.method === "POST");
      expect(create).toBeDefined();
      const targets = [create!, ...mutations.filter((m) => m !== create)];
      expect(targets.length, "app/api/dashboard has a mutation route").toBeGreaterThan(0);
      const send = (r: APIRequestContext, target: { method: string; path: string }, headers: Record<string, string>) =>
        r.fetch(target.path, { method: target.method, headers: { Cookie: cookie, "Content-Type": "application/json", ...headers }, data: {} });
      for (const target of targets) {
        const crossSite = await send(request, target, { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
        expect(crossSite.status(), `${target.method} ${target.path} cross-site`).toBe(403);
        expect(await crossSite.json()).toMatchObject({ error: "cross_site" });
        // A browser too old for Sec-Fetch-Site still sends Origin.
        const foreignOrigin = await send(request, target, { Origin: "https://evil.example" });
        expect(foreignOrigin.status(), `${target.method} ${target.path} from a foreign Origin`).toBe(403);
      }
      // Nothing happened: the account still has its one key, which still works, and the session still does.
      expect((await api("/v1.0/quota", account.apiKey)).status).toBe(200);
      expect(((await api("/v2/keys", account.apiKey)).body as { data: unknown[] }).data).toHaveLength(1);
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  });
});

test.describe("screenshots", () => {
  for (const [name, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test(`sign-in and sign-up pages (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      for (const pathname of ["/sign-in", "/sign-up"]) {
        await page.goto(pathname);
        await expect(page.getByLabel("Email")).toBeVisible();
        await expect(page.getByLabel("Password")).toBeVisible();
        // Nothing sticks out sideways on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${pathname} horizontal overflow`).toBeLessThanOrEqual(0);
        const file = test.info().outputPath(`${pathname.slice(1)}-${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await test.info().attach(`${pathname.slice(1)}-${name}`, { path: file, contentType: "image/png" });
      }
    });
  }
});
