import { describe, expect, it } from "vitest";
import { curlExample, openApiSchema, operationsOf } from "../../dashboard/client/api-reference.ts";
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
      `curl -X POST "https://sc.example/v2/tracked?apikey=K" -H "Content-Type: application/json" -d '{"urls":["https://example.com/post"]}'`,
    );
    expect(curlExample(find("GET", "/v1.1/"), "https://sc.example", "K")).toBe('curl "https://sc.example/v1.1/?url=https://example.com/post&apikey=K"');
    expect(curlExample(find("GET", "/v2/imports/{id}"), "https://sc.example", "K")).toBe('curl "https://sc.example/v2/imports/IMPORT_ID?apikey=K"');
  });
});
