import { describe, expect, it } from "vitest";
import { inlineCode } from "./inline-code.ts";

describe("inlineCode", () => {
  it("splits text and code spans", () => {
    expect(inlineCode("one URL per line in `urls` (form or `text/plain`)")).toEqual([
      { code: false, text: "one URL per line in " },
      { code: true, text: "urls" },
      { code: false, text: " (form or " },
      { code: true, text: "text/plain" },
      { code: false, text: ")" },
    ]);
    expect(inlineCode("`GET /v2/bulk`")).toEqual([{ code: true, text: "GET /v2/bulk" }]);
    expect(inlineCode("no code here")).toEqual([{ code: false, text: "no code here" }]);
    expect(inlineCode("")).toEqual([]);
  });

  it("leaves an unmatched backtick as text", () => {
    expect(inlineCode("it's `open")).toEqual([{ code: false, text: "it's `open" }]);
    expect(inlineCode("a `b` c `d")).toEqual([
      { code: false, text: "a " },
      { code: true, text: "b" },
      { code: false, text: " c `d" },
    ]);
  });

  it("closes a run of backticks only with a run of the same length, so code may hold backticks", () => {
    expect(inlineCode("``a ` b`` and `c`")).toEqual([
      { code: true, text: "a ` b" },
      { code: false, text: " and " },
      { code: true, text: "c" },
    ]);
    expect(inlineCode("`` ` ``")).toEqual([{ code: true, text: "`" }]);
    expect(inlineCode("``x` y")).toEqual([{ code: false, text: "``x` y" }]);
  });

  it("keeps markup as text: it is never parsed as HTML", () => {
    expect(inlineCode("<img src=x onerror=alert(1)> `<b>`")).toEqual([
      { code: false, text: "<img src=x onerror=alert(1)> " },
      { code: true, text: "<b>" },
    ]);
  });
});
