import { describe, expect, it } from "vitest";
import { historyCsvName } from "./csv-name.ts";

describe("historyCsvName", () => {
  it("names the file after the URL's host and path, one `_` for each `/`", () => {
    expect(historyCsvName("https://example.com/post-1", "day")).toBe("example.com_post-1_history.csv");
    expect(historyCsvName("https://example.com/blog/2024/post-1/", "day")).toBe("example.com_blog_2024_post-1_history.csv");
    expect(historyCsvName("https://example.com/", "day")).toBe("example.com_history.csv");
  });

  it("says hourly in the name of hourly points", () => {
    expect(historyCsvName("https://example.com/post-1", "hour")).toBe("example.com_post-1_history_hourly.csv");
  });

  it("keeps a query, cleaned, and leaves out the port and fragment", () => {
    expect(historyCsvName("https://example.com/?p=12&lang=en", "day")).toBe("example.com_p_12_lang_en_history.csv");
    expect(historyCsvName("http://example.com:8080/a#top", "day")).toBe("example.com_a_history.csv");
  });

  it("turns every other character into `_`, never leaving one a file system or a header would choke on", () => {
    const name = historyCsvName('https://xn--bcher-kva.example/caf%C3%A9/"quoted"/..%2F..%2Fetc/a b/%E0%A4%A', "day");
    expect(name).toBe("xn--bcher-kva.example_caf_quoted_etc_a_b_E0_A4_A_history.csv");
    expect(name).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(historyCsvName("https://example.com/...", "day")).toBe("example.com_history.csv");
  });

  it("stays within 100 characters before the suffix, however long the URL", () => {
    const name = historyCsvName(`https://example.com/${"segment/".repeat(300)}`, "day");
    expect(name.length).toBeLessThanOrEqual(100 + "_history.csv".length);
    expect(name).toMatch(/^example\.com_segment_segment_.*[a-z]_history\.csv$/);
  });
});
