import { describe, expect, it } from "vitest";
import { parseCountUrl } from "./count-url.ts";
import { MAX_URL_LENGTH } from "./url-length.ts";

function accepted(input: string) {
  const result = parseCountUrl(input);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted, got: ${result.reason}`);
  return result;
}

function refusal(input: string): string {
  const result = parseCountUrl(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${result.normalized}`);
  expect(result.reason.length).toBeGreaterThan(0);
  return result.reason;
}

describe("parseCountUrl: schemes", () => {
  it("accepts http and https URLs", () => {
    expect(accepted("http://a.com/x").normalized).toBe("http://a.com/x");
    expect(accepted("https://a.com/x?y=1").normalized).toBe("https://a.com/x?y=1");
    expect(accepted("HTTPS://a.com").normalized).toBe("https://a.com/");
  });

  it.each(["ftp://a.com/x", "javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "mailto:x@a.com", "ws://a.com/"])(
    "refuses the scheme of %s",
    (input) => {
      expect(refusal(input)).toMatch(/http/);
    },
  );

  it.each(["a.com/x", "www.a.com", "//a.com/x", "http:/a.com", "http:a.com"])("refuses %s without a complete scheme", (input) => {
    expect(refusal(input)).toMatch(/http:\/\/ or https:\/\//);
  });
});

describe("parseCountUrl: encoding", () => {
  it("decodes a URL that is still percent-encoded once", () => {
    expect(accepted("http%3A%2F%2Fa.com%2Fx").normalized).toBe("http://a.com/x");
    expect(accepted("https%3a%2f%2fa.com%2Fx%3Fy%3D1%26z%3D2").normalized).toBe("https://a.com/x?y=1&z=2");
  });

  it("leaves percent-escapes inside a plain URL alone", () => {
    expect(accepted("http://a.com/a%20b?q=%26").normalized).toBe("http://a.com/a%20b?q=%26");
  });

  it("does not throw on a broken escape after an encoded scheme", () => {
    expect(parseCountUrl("http%3A%2F%2Fa.com%2F%E0%A4%A").ok).toBe(false);
  });
});

describe("parseCountUrl: length", () => {
  it(`accepts a URL of exactly ${MAX_URL_LENGTH} characters and refuses one longer`, () => {
    const prefix = "http://a.com/";
    const exact = prefix + "x".repeat(MAX_URL_LENGTH - prefix.length);
    expect(exact).toHaveLength(2048);
    expect(accepted(exact).normalized).toBe(exact);
    expect(refusal(`${exact}x`)).toMatch(/2048/);
    expect(refusal(prefix + "x".repeat(10_000))).toMatch(/2048/);
  });
});

describe("parseCountUrl: control characters", () => {
  it.each(["https://a.com/x\u0000y", "https://a.com/x\ty", "https://a.com/x\ny", "https://a.com/x\u007fy", "https%3A%2F%2Fa.com%2Fx%00y"])(
    "refuses %j (the URL as written is stored too)",
    (input) => {
      expect(parseCountUrl(input)).toEqual({ ok: false, reason: expect.stringMatching(/control character/) });
    },
  );
});

describe("parseCountUrl: normalization", () => {
  it("drops the fragment", () => {
    expect(accepted("http://a.com/x#section").normalized).toBe("http://a.com/x");
  });

  it("drops credentials; the host is what follows the @", () => {
    const result = accepted("http://good.com@evil.com/");
    expect(result.url.hostname).toBe("evil.com");
    expect(result.normalized).toBe("http://evil.com/");
    expect(accepted("https://user:pass@a.com/x").normalized).toBe("https://a.com/x");
  });

  it("lowercases the scheme and host but not the path", () => {
    expect(accepted("HTTP://A.COM/Path?Q=X").normalized).toBe("http://a.com/Path?Q=X");
  });

  it("turns an IDN host into punycode", () => {
    const result = accepted("http://bücher.de/");
    expect(result.url.hostname).toBe("xn--bcher-kva.de");
    expect(result.normalized).toBe("http://xn--bcher-kva.de/");
  });

  it("drops the trailing dot of the host", () => {
    expect(accepted("http://a.com./x").normalized).toBe("http://a.com/x");
    expect(accepted("http://a.com.").url.hostname).toBe("a.com");
  });

  it("reads a backslash as the URL parser does, so the host is the one before it", () => {
    expect(accepted("http://evil.com\\@good.com").url.hostname).toBe("evil.com");
  });

  it("trims surrounding whitespace", () => {
    expect(accepted("  http://a.com/x \n").normalized).toBe("http://a.com/x");
  });
});

describe("parseCountUrl: garbage", () => {
  it.each([
    [""],
    ["   "],
    ["http://"],
    ["https://"],
    ["http://a com/"],
    ["http://a.com:abc/"],
    ["http://a.com:99999/"],
    ["http://localhost/"],
    ["http://intranet/x"],
    ["http://.com/"],
    ["http://..com/"],
    ["http://a..b/"],
    ["http://a.com../"],
    ["\u0000\u0001"],
    ["%FF%FE"],
    ["not a url"],
    ["http://[::1"],
  ])("refuses %j with a reason", (input) => {
    refusal(input);
  });
});

describe("parseCountUrl: only public hosts", () => {
  it.each([
    // Loopback in every spelling the URL parser reads as 127.0.0.1 or ::1.
    "http://127.0.0.1/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://%31%32%37.0.0.1/",
    "http://１２７.０.０.１/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[::7f00:1]/",
    "http://[::a00:1]/",
    // Private, shared, link-local, unspecified, broadcast, multicast, reserved.
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://192.168.0.1/",
    "http://100.64.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0.0.0.0/",
    "http://0/",
    "http://255.255.255.255/",
    "http://224.0.0.1/",
    "http://192.0.2.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[::]/",
    "http://[ff02::1]/",
    "http://[::ffff:10.0.0.1]/",
    // IPv6 outside the global unicast block 2000::/3, which nothing routes.
    "http://[4000::1]/",
    "http://[::2]/",
    "http://[100::1]/",
    "http://[2001:db8::1]/",
    // Special-use names.
    "http://localhost/",
    "http://localhost./",
    "http://LOCALHOST:3000/",
    "http://app.localhost/",
    "http://printer.local/",
    "http://router.home.arpa/",
    "http://db.internal/",
    "http://a.b.test/",
    "http://www.example/",
    "http://duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion/",
    "http://service.alt/",
    "http://1.0.0.127.in-addr.arpa/",
    "http://arpa/",
    // What a browser's parser keeps where Node's refuses: a space or other escapes in the host.
    "https://exa mple.com/x",
    "https://exa%20mple.com/x",
    "http://1.2.3.4.5/",
    "http://256.1.1.1/",
    // International names that are not valid, whichever parser let them through.
    "https://xn--zz.com/",
    "https://xn--.com/",
    "https://١٢٣.com/",
  ])("refuses %s", (input) => {
    expect(parseCountUrl(input).ok, input).toBe(false);
  });

  it.each(["https://example.com/", "http://8.8.8.8/", "http://[2606:4700:4700::1111]/", "https://bücher.de/", "https://xn--mgba3a4f16a.ir/", "https://my_blog.example.com/", "https://example.com:8443/x"])(
    "accepts %s",
    (input) => {
      accepted(input);
    },
  );

  it("says why", () => {
    expect(refusal("http://192.168.0.1/")).toMatch(/public host/);
  });
});
