import { describe, expect, it } from "vitest";
import { curlExample, matchesSearch, openApiSchema, operationsOf } from "../../dashboard/client/api-reference.ts";
import { openApiDocument } from "../../service/openapi/document.ts";

/** The dashboard's API reference, read from the document the API generates. */
describe("the API reference model", () => {
  const operations = operationsOf(openApiSchema.parse(JSON.parse(openApiDocument())));
  const find = (method: string, path: string) => operations.find((op) => op.method === method && op.path === path)!;

  it("lists every operation of v1.0, v1.1 and v2 with its parameters", () => {
    expect(new Set(operations.map((op) => op.group))).toEqual(new Set(["v1.0", "v1.1", "v2"]));
    const list = find("GET", "/v2/tracked");
    expect(list.parameters.find((p) => p.name === "sort")).toMatchObject({ required: false, values: ["total", "change_7d", "added"] });
    expect(find("GET", "/v2/counts").parameters.find((p) => p.name === "url")).toMatchObject({ required: true });
    expect(find("DELETE", "/v2/tracked").responses.map((r) => r.status)).toContain("204");
  });

  it("builds runnable curl examples from the schemas, with the key given", () => {
    expect(curlExample(find("GET", "/v2/counts"), "https://sc.example", "K")).toBe('curl "https://sc.example/v2/counts?url=https://example.com/post&apikey=K"');
    expect(curlExample(find("POST", "/v2/tracked"), "https://sc.example", "K")).toBe(
      `curl -X POST "https://sc.example/v2/tracked?apikey=K" \\\n  -H "Content-Type: application/json" \\\n  -d '{"urls":["https://example.com/post"]}'`,
    );
    expect(curlExample(find("GET", "/v1.1/"), "https://sc.example", "K")).toBe('curl "https://sc.example/v1.1/?url=https://example.com/post&apikey=K"');
    expect(curlExample(find("GET", "/v2/imports/{id}"), "https://sc.example", "K")).toBe('curl "https://sc.example/v2/imports/IMPORT_ID?apikey=K"');
  });

  it("lists the webhook and event routes, PATCH included, with runnable examples", () => {
    const webhookRoutes = operations.filter((op) => /^\/v2\/(webhooks|events)/.test(op.path)).map((op) => `${op.method} ${op.path}`);
    expect(webhookRoutes.sort()).toEqual([
      "DELETE /v2/webhooks/{id}",
      "GET /v2/events",
      "GET /v2/webhooks",
      "GET /v2/webhooks/{id}",
      "GET /v2/webhooks/{id}/deliveries",
      "PATCH /v2/webhooks/{id}",
      "POST /v2/webhooks",
      "POST /v2/webhooks/{id}/deliveries/{delivery_id}/retry",
      "POST /v2/webhooks/{id}/secret",
      "POST /v2/webhooks/{id}/test",
    ]);
    expect(curlExample(find("POST", "/v2/webhooks"), "https://sc.example", "K")).toBe(
      `curl -X POST "https://sc.example/v2/webhooks?apikey=K" \\\n  -H "Content-Type: application/json" \\\n  -d '{"url":"https://example.com/hooks/sharecount","events":["bulk.completed"]}'`,
    );
    expect(curlExample(find("PATCH", "/v2/webhooks/{id}"), "https://sc.example", "K")).toMatch(/^curl -X PATCH "https:\/\/sc.example\/v2\/webhooks\/WEBHOOK_ID\?apikey=K"/);
    const retry = find("POST", "/v2/webhooks/{id}/deliveries/{delivery_id}/retry");
    expect(curlExample(retry, "https://sc.example", "K")).toBe('curl -X POST "https://sc.example/v2/webhooks/WEBHOOK_ID/deliveries/DELIVERY_ID/retry?apikey=K"');
    expect(find("GET", "/v2/events").parameters.find((p) => p.name === "type")!.values).toContain("quota.warning");
    expect(find("POST", "/v2/webhooks/{id}/test").responses.map((r) => r.status)).toEqual(expect.arrayContaining(["202", "404", "409"]));
  });

  it("gives v1's bulk submission a body of URL lines, as its clients send it", () => {
    for (const version of ["v1.0", "v1.1"]) {
      expect(curlExample(find("POST", `/${version}/bulk`), "https://sc.example", "K")).toBe(
        [
          `printf '%s\\n' 'https://example.com/post' 'https://example.org/news' | \\`,
          `  curl -X POST "https://sc.example/${version}/bulk?apikey=K" \\`,
          `  -H "Content-Type: text/plain" \\`,
          "  --data-binary @-",
        ].join("\n"),
      );
    }
  });

  it("gives each operation its own readable anchor", () => {
    expect(find("GET", "/v1.0/").id).toBe("get-v1-0");
    expect(find("GET", "/v2/history.csv").id).toBe("get-v2-history-csv");
    expect(find("GET", "/v2/imports/{id}").id).toBe("get-v2-imports-id");
    expect(new Set(operations.map((op) => op.id)).size).toBe(operations.length);
  });

  it("searches every word in the method, path, summary and parameter names", () => {
    const matching = (search: string) => operations.filter((op) => matchesSearch(op, search)).map((op) => `${op.method} ${op.path}`);
    expect(matching("")).toHaveLength(operations.length);
    expect(matching("post bulk")).toEqual(["POST /v1.0/bulk", "POST /v1.1/bulk", "POST /v2/bulk"]);
    expect(matching("History CSV")).toEqual(["GET /v2/history.csv"]);
    expect(matching("custom_ttl")).toEqual(["GET /v1.0/", "GET /v1.1/"]);
    expect(matching("no such endpoint")).toEqual([]);
  });
});
