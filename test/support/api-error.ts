import { expect } from "vitest";

/** The response is an API error object, exactly `{"Error": string, "Type": string}`, as JSON with this status. */
export async function expectError(res: Response, status: number, type: string): Promise<{ Error: string; Type: string }> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = JSON.parse(text);
  expect(Object.keys(body).sort()).toEqual(["Error", "Type"]);
  expect(body).toEqual({ Error: expect.any(String), Type: type });
  expect(body.Error.length).toBeGreaterThan(0);
  return body as { Error: string; Type: string };
}
