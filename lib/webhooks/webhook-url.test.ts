import { describe, expect, it } from "vitest";
import { webhookUrlRefusal } from "./webhook-url.ts";

describe("a webhook endpoint's URL", () => {
  it("is an http(s) URL of a public host, without credentials", () => {
    expect(webhookUrlRefusal("https://example.com/hooks", false)).toBeNull();
    expect(webhookUrlRefusal("http://93.184.215.14:8080/h?x=1", false)).toBeNull();
    expect(webhookUrlRefusal("ftp://example.com/h", false)).toMatch(/http/);
    expect(webhookUrlRefusal("example.com/h", false)).toMatch(/complete URL/);
    expect(webhookUrlRefusal("https://user:pw@example.com/h", false)).toMatch(/user name or password/);
    expect(webhookUrlRefusal("https://user@example.com/h", false)).toMatch(/user name or password/);
    expect(webhookUrlRefusal(`https://example.com/${"a".repeat(2000)}`, false)).toMatch(/2000/);
  });

  it("refuses localhost and private, loopback, link-local and reserved addresses in any spelling", () => {
    for (const url of [
      "http://localhost:8080/h",
      "http://api.localhost/h",
      "http://127.0.0.1/h",
      "http://0x7f.1/h",
      "http://2130706433/h",
      "http://[::1]/h",
      "http://[::ffff:127.0.0.1]/h",
      "http://10.0.0.5/h",
      "http://192.168.1.1/h",
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]/h",
      "http://0.0.0.0/h",
      "http://intranet/h",
      "http://service.internal/h",
    ]) {
      expect(webhookUrlRefusal(url, false), url).not.toBeNull();
    }
  });

  it("lets private hosts through with WEBHOOK_ALLOW_PRIVATE_HOSTS, still refusing other schemes and credentials", () => {
    expect(webhookUrlRefusal("http://127.0.0.1:9999/h", true)).toBeNull();
    expect(webhookUrlRefusal("http://localhost/h", true)).toBeNull();
    expect(webhookUrlRefusal("file:///etc/passwd", true)).not.toBeNull();
    expect(webhookUrlRefusal("http://a:b@127.0.0.1/h", true)).not.toBeNull();
  });
});
