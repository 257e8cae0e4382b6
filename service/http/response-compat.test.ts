import { getRequestListener } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { alignResponseStatics } from "./response-compat.ts";

describe("Response statics under @hono/node-server's global Response", () => {
  it("Response.json and Response.redirect return instances of the global Response, with their content", async () => {
    const NativeResponse = globalThis.Response;
    getRequestListener(() => new Response("ok"));
    // The listener replaced the global: without the fix, a static's result is not an instance of it.
    expect(globalThis.Response).not.toBe(NativeResponse);
    expect(Response.json({ a: 1 }) instanceof Response).toBe(false);

    alignResponseStatics();
    alignResponseStatics(); // idempotent

    const json = Response.json({ a: 1, b: [null] }, { status: 401, headers: { "Cache-Control": "no-store" } });
    expect(json instanceof Response).toBe(true);
    expect(json instanceof NativeResponse).toBe(true);
    expect(json.status).toBe(401);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(json.headers.get("cache-control")).toBe("no-store");
    expect(await json.json()).toEqual({ a: 1, b: [null] });

    const custom = Response.json("x", { headers: { "Content-Type": "application/vnd.test+json" } });
    expect(custom.headers.get("content-type")).toBe("application/vnd.test+json");
    expect(await custom.text()).toBe('"x"');

    const redirect = Response.redirect("https://example.com/next", 307);
    expect(redirect instanceof Response).toBe(true);
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toBe("https://example.com/next");

    // Ordinary construction is untouched.
    const plain = new Response("body", { status: 201 });
    expect(plain instanceof Response).toBe(true);
    expect(plain.status).toBe(201);
    expect(await plain.text()).toBe("body");
  });
});
