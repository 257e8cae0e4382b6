import { describe, expect, it } from "vitest";
import { polylinePoints, sparklineShape, sparklineSummary } from "./sparkline.ts";

describe("sparklineShape", () => {
  it("spans the width, highest value at the top, lowest at the bottom", () => {
    const { lines, dots } = sparklineShape([0, 5, 10], 100, 20, 0);
    expect(dots).toEqual([]);
    expect(lines).toEqual([
      [
        [0, 20],
        [50, 10],
        [100, 0],
      ],
    ]);
  });

  it("breaks the line at days without a point, and draws a lone value as a dot", () => {
    const { lines, dots } = sparklineShape([1, 2, null, 3, null, null, 4, 5], 70, 10, 0);
    expect(lines.map((line) => line.map(([x]) => x))).toEqual([
      [0, 10],
      [60, 70],
    ]);
    expect(dots).toEqual([[30, expect.any(Number)]]);
  });

  it("runs a flat series through the middle instead of dividing by zero", () => {
    const { lines } = sparklineShape([7, 7, 7], 30, 12, 0);
    expect(lines[0]!.map(([, y]) => y)).toEqual([6, 6, 6]);
  });

  it("draws nothing when no day has a point", () => {
    expect(sparklineShape([null, null], 30, 12)).toEqual({ lines: [], dots: [] });
  });

  it("keeps strokes off the edges by the inset", () => {
    const { lines } = sparklineShape([0, 10], 100, 20, 2);
    expect(lines[0]).toEqual([
      [2, 18],
      [98, 2],
    ]);
  });

  it("writes SVG polyline points", () => {
    expect(
      polylinePoints([
        [0, 1.5],
        [2, 3],
      ]),
    ).toBe("0,1.5 2,3");
  });
});

describe("sparklineSummary", () => {
  it("says where the line starts and ends, or that there is none", () => {
    expect(sparklineSummary([null, 1200, null, 1500])).toBe("Daily totals over the last 4 days, from 1,200 to 1,500");
    expect(sparklineSummary([null, 7, null])).toBe("One total in the last 3 days: 7");
    expect(sparklineSummary([null, null])).toBe("No totals in the last 2 days");
  });
});
