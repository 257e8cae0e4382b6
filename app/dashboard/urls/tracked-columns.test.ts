import { describe, expect, it } from "vitest";
import { headlineNetworks } from "../../../dashboard/client/tracked/networks.ts";
import { tableMinRem, trackedColumns } from "./tracked-columns.ts";

describe("trackedColumns", () => {
  it("puts one column per shown network, in the order shown, after the total and its changes", () => {
    const labels = trackedColumns(headlineNetworks(["reddit", "facebook"])).map((column) => column.label);
    expect(labels).toEqual(["Select", "URL", "Total", "7-day change", "30-day change", "30-day trend", "Reddit", "Facebook", "Added", "Refreshed", "Remove"]);
  });

  it("says on hover what a network's number is", () => {
    const reddit = trackedColumns(headlineNetworks(["reddit"])).find((column) => column.network === "reddit");
    expect(reddit).toMatchObject({ numeric: true, title: "Reddit: score + comments" });
  });

  it("has no network column when none is shown", () => {
    expect(trackedColumns([]).some((column) => column.network)).toBe(false);
  });
});

describe("tableMinRem", () => {
  it("grows with each network's column", () => {
    expect(tableMinRem(trackedColumns(headlineNetworks(["facebook", "pinterest"])))).toBe(60.5);
    expect(tableMinRem(trackedColumns(headlineNetworks(["facebook", "pinterest", "reddit"])))).toBe(66);
  });
});
