import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, type Scope } from "../../lib/keys/scopes.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { newKey } from "../support/keys.ts";

/**
 * Every operation of the OpenAPI document, as the API serves it, called with a key lacking the scope the
 * document names (403 insufficient_scope) and with a key holding only that scope (anything but a scope or
 * key refusal). An operation without a scope cannot enter the document, so a new route without one fails here.
 */
let svc: TestService;
let operations: { method: string; path: string; scope: Scope }[];

beforeAll(async () => {
  svc = await startTestService({}, { worker: false });
  const document = (await (await svc.get("/v2/openapi.json")).json()) as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => {
      const scopes = new Set((operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat()));
      expect(scopes.size, `${method} ${path} names one scope on every scheme`).toBeLessThanOrEqual(1);
      return scopes.size === 0 ? [] : [{ method: method.toUpperCase(), path, scope: [...scopes][0] as Scope }];
    }),
  );
});
afterAll(() => svc.close());

async function keyOf(scopes: readonly Scope[]): Promise<string> {
  const { email } = await svc.account();
  const account = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
  return newKey(svc.prisma, account.id, scopes);
}

/** The operation with placeholders for its path parameters and a URL to count, with `key`. */
function request(operation: { method: string; path: string }, key: string) {
  const path = operation.path.replace(/\{[^}]+\}/g, "x").replace(/^\/v1\.(\d)\/$/, "/v1.$1/");
  const body = operation.method === "GET" || operation.method === "DELETE" ? undefined : "{}";
  return svc.get(`${path}?url=${encodeURIComponent("https://example.com/scoped")}&apikey=${key}`, {
    method: operation.method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body,
  });
}

describe("scopes", () => {
  it("the document names a scope for every operation that takes a key, from the catalogue", () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const operation of operations) expect(ALL_SCOPES).toContain(operation.scope);
  });

  it("each operation refuses a key without its scope with 403 insufficient_scope, and lets a key with only that scope through", async () => {
    const lacking = new Map<Scope, string>();
    const only = new Map<Scope, string>();
    for (const scope of ALL_SCOPES) {
      lacking.set(scope, await keyOf(ALL_SCOPES.filter((other) => other !== scope)));
      only.set(scope, await keyOf([scope]));
    }
    for (const operation of operations) {
      const refused = await request(operation, lacking.get(operation.scope)!);
      const body = (await refused.json()) as { Type?: string; Error?: string };
      expect({ operation, status: refused.status, type: body.Type }).toEqual({ operation, status: 403, type: "insufficient_scope" });
      expect(body.Error).toContain(operation.scope);

      const allowed = await request(operation, only.get(operation.scope)!);
      const answer = allowed.status === 204 ? {} : ((await allowed.json().catch(() => ({}))) as { Type?: string });
      expect({ operation, type: answer.Type }).not.toMatchObject({ type: expect.stringMatching(/^(insufficient_scope|invalid_api_key|missing_api_key)$/) });
    }
  });
});
