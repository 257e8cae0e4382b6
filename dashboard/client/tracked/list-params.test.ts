import { describe, expect, it } from "vitest";
import { changeList, DEFAULT_LIST_PARAMS, listSearch, parseListParams } from "./list-params.ts";

const parse = (query: string) => parseListParams(new URLSearchParams(query));

describe("parseListParams", () => {
  it("is the newest first, unfiltered, first page without parameters", () => {
    expect(parse("")).toEqual({ sort: "added", order: "desc", filter: "", q: "", page: 1 });
  });

  it("reads every parameter", () => {
    expect(parse("sort=total&order=asc&filter=growing&q=%20blog%20&page=3")).toEqual({
      sort: "total",
      order: "asc",
      filter: "growing",
      q: "blog",
      page: 3,
    });
  });

  it.each([
    ["sort=name", { sort: "added" }],
    ["order=up", { order: "desc" }],
    ["filter=all", { filter: "" }],
    ["page=0", { page: 1 }],
    ["page=-2", { page: 1 }],
    ["page=2.5", { page: 1 }],
    ["page=abc", { page: 1 }],
    ["page=99999999", { page: 1 }],
    [`q=${"x".repeat(201)}`, { q: "" }],
    ["q=a%00b", { q: "" }],
  ])("falls back to the default for a bad value (%s), keeping the others", (query, fallback) => {
    expect(parse(`${query}&filter=uncounted&sort=change_7d`)).toMatchObject({ filter: "uncounted", sort: "change_7d", ...fallback });
  });
});

describe("listSearch", () => {
  it("is empty for the defaults", () => {
    expect(listSearch(DEFAULT_LIST_PARAMS)).toBe("");
  });

  it("writes only what differs from the defaults, and reads back the same", () => {
    const params = { ...DEFAULT_LIST_PARAMS, sort: "total" as const, q: "ü & ?", page: 4 };
    const search = listSearch(params);
    expect(search).toBe("?sort=total&q=%C3%BC+%26+%3F&page=4");
    expect(parse(search.slice(1))).toEqual(params);
  });
});

describe("changeList", () => {
  const on3 = { ...DEFAULT_LIST_PARAMS, page: 3 };

  it("flips the order of the sorted column, and sorts another from the top, back at page 1", () => {
    expect(changeList(on3, { sort: "added" })).toMatchObject({ sort: "added", order: "asc", page: 1 });
    expect(changeList({ ...on3, order: "asc" }, { sort: "added" })).toMatchObject({ order: "desc" });
    expect(changeList({ ...on3, order: "asc" }, { sort: "total" })).toMatchObject({ sort: "total", order: "desc", page: 1 });
  });

  it("starts a new filter or search at page 1, and moves to the page asked", () => {
    expect(changeList(on3, { filter: "growing" })).toMatchObject({ filter: "growing", page: 1 });
    expect(changeList(on3, { q: "blog" })).toMatchObject({ q: "blog", page: 1 });
    expect(changeList(on3, { page: 4 })).toMatchObject({ page: 4 });
  });
});
