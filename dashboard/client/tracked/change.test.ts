import { describe, expect, it } from "vitest";
import { formatChange } from "./change.ts";

describe("formatChange", () => {
  it("signs growth and loss, with a real minus sign", () => {
    expect(formatChange(1234)).toEqual({ text: "+1,234", tone: "up", label: "up 1,234" });
    expect(formatChange(-56)).toEqual({ text: "−56", tone: "down", label: "down 56" });
  });

  it("tells no change apart from no earlier count", () => {
    expect(formatChange(0)).toMatchObject({ text: "0", tone: "flat" });
    expect(formatChange(null)).toMatchObject({ text: "—", tone: "unknown" });
  });
});
