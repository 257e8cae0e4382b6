import { describe, expect, it } from "vitest";
import { displayHost, displayUrl } from "./display-url.ts";
import { parseUserUrl } from "./user-url.ts";

describe("displayHost", () => {
  it.each([
    ["xn--bcher-kva.de", "bücher.de"],
    ["shop.xn--bcher-kva.de", "shop.bücher.de"],
    ["xn--e1afmkfd.xn--p1ai", "пример.рф"],
    ["xn--r8jz45g.jp", "例え.jp"],
    ["xn--fa-hia.de", "faß.de"],
  ])("shows %s as %s", (ascii, unicode) => {
    expect(displayHost(ascii)).toBe(unicode);
  });

  it.each(["example.com", "8.8.8.8", "[2606:4700:4700::1111]", "xn-not-idn.com"])("leaves %s as it is", (host) => {
    expect(displayHost(host)).toBe(host);
  });

  it("keeps a label that does not decode in punycode", () => {
    expect(displayHost("xn--zz.com")).toBe("xn--zz.com");
  });

  it("keeps a label mixing Latin, Greek or Cyrillic letters in punycode, and decodes the others", () => {
    // pаypal with a Cyrillic а.
    expect(displayHost("xn--pypal-4ve.com")).toBe("xn--pypal-4ve.com");
    expect(displayHost("xn--pypal-4ve.xn--bcher-kva.de")).toBe("xn--pypal-4ve.bücher.de");
  });
});

describe("displayUrl", () => {
  it("shows the host in Unicode and keeps the rest of the URL as it is", () => {
    expect(displayUrl("https://xn--bcher-kva.de:8080/katalog/%C3%BC?x=1")).toBe("https://bücher.de:8080/katalog/%C3%BC?x=1");
    expect(displayUrl("http://xn--e1afmkfd.xn--p1ai/")).toBe("http://пример.рф/");
  });

  it("returns an ASCII URL, or what is no URL, unchanged", () => {
    expect(displayUrl("https://Example.com/A?b#c")).toBe("https://Example.com/A?b#c");
    expect(displayUrl("not a url")).toBe("not a url");
  });

  it.each(["https://xn--bcher-kva.de/katalog", "https://shop.xn--e1afmkfd.xn--p1ai/a?b=1", "http://xn--r8jz45g.jp:8080/"])(
    "is read back by the URL rule as the stored URL it shows (%s)",
    (stored) => {
      const read = parseUserUrl(displayUrl(stored));
      expect(read.ok && read.normalized).toBe(stored);
    },
  );
});
