import { build } from "esbuild";
import { UrlListReader, type LineVerdict } from "../lib/bulk/url-list";
import { E2E_BASE_URL } from "./env";
import { expect, finishedJob, test } from "./fixtures";
import { urlCorpus } from "./url-corpus";

/**
 * The bulk page checks a file before upload, and the API checks the job's body: both must run one validation.
 * A corpus of tricky lines is read by the shared line rule under Chromium's URL parser and Node's, submitted
 * raw to the API, and uploaded through the dashboard, and all of them must agree line by line.
 */

/** What a verdict says about a line: accepted (and counted as what), or which kind of refusal. */
const describeVerdict = (verdict: LineVerdict) => (verdict.kind === "accepted" ? `accepted as ${verdict.countUrl}` : verdict.kind);


test("the dashboard's pre-check and the API read a corpus of over 500 tricky lines the same way", async ({ signedIn: page, account }) => {
  test.setTimeout(120_000);
  const lines = urlCorpus(`precheck-${Date.now().toString(36)}.example.com`);
  expect(lines.length).toBeGreaterThanOrEqual(500);
  const reader = new UrlListReader(null);
  const inNode = lines.map((line) => describeVerdict(reader.read(line)));
  const accepted = lines.filter((_, i) => inNode[i]!.startsWith("accepted")).map((line) => line.trim());

  await test.step("the line rule gives every line the same verdict under Chromium's URL parser", async () => {
    const bundle = await build({ entryPoints: ["lib/bulk/url-list.ts"], bundle: true, write: false, format: "iife", globalName: "urlList", platform: "browser" });
    await page.goto("about:blank");
    const inChromium = await page.evaluate(
      ({ code, lines }) => {
        const { UrlListReader } = new Function(`${code}; return urlList;`)() as typeof import("../lib/bulk/url-list");
        const reader = new UrlListReader(null);
        return lines.map((line) => {
          const verdict = reader.read(line);
          return verdict.kind === "accepted" ? `accepted as ${verdict.countUrl}` : verdict.kind;
        });
      },
      { code: bundle.outputFiles[0]!.text, lines },
    );
    const differences = lines.flatMap((line, i) => (inChromium[i] === inNode[i] ? [] : [`${JSON.stringify(line)}: Chromium ${inChromium[i]}, Node ${inNode[i]}`]));
    expect(differences).toEqual([]);
  });

  await test.step("the API accepts exactly those lines from the raw corpus", async () => {
    const response = await fetch(`${E2E_BASE_URL}/v1.0/bulk?apikey=${account.apiKey}`, { method: "POST", headers: { "content-type": "text/plain" }, body: lines.join("\n") });
    const body = (await response.json()) as { count: number; bulk_id: string };
    expect(response.status).toBe(200);
    expect(body.count).toBe(accepted.length);
    expect(Object.keys((await finishedJob(account.apiKey, body.bulk_id)).data).sort()).toEqual([...accepted].sort());
  });

  await test.step("the bulk page counts them, and the job it starts holds exactly them", async () => {
    const invalid = inNode.filter((v) => v === "invalid").length;
    await page.goto("/dashboard/bulk");
    await page.getByLabel("URL file (.txt or .csv)").setInputFiles({ name: "corpus.txt", mimeType: "text/plain", buffer: Buffer.from(lines.join("\n")) });
    await expect(page.getByTestId("bulk-valid")).toHaveText(accepted.length.toLocaleString("en-US"));
    await expect(page.getByTestId("bulk-invalid")).toHaveText(invalid.toLocaleString("en-US"));
    await page.getByRole("button", { name: `Start job with ${accepted.length} URLs` }).click();
    await expect(page).toHaveURL(/\/dashboard\/bulk\/[0-9a-f]{40}$/);
    const bulkId = new URL(page.url()).pathname.split("/").at(-1)!;
    expect(Object.keys((await finishedJob(account.apiKey, bulkId)).data).sort()).toEqual([...accepted].sort());
    await expect(page.getByTestId("bulk-progress-text")).toHaveText(`${accepted.length} of ${accepted.length} URLs counted`);
  });
});
