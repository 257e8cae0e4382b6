import { z } from "zod";

/**
 * The URL list's state, all of it in the page's address (`?sort=total&order=asc&filter=growing&q=blog&page=2`),
 * so back, forward, reload and a shared link show the same list. A missing or bad value is its default, and a
 * default is left out of the address, so the plain list is plain `/dashboard/urls`.
 */

export const TRACKED_PAGE_SIZE = 100;
/** The largest plan tracks 500,000 URLs: 5,000 pages. */
const MAX_PAGE = 5_000;
const MAX_SEARCH = 200;

const listParamsSchema = z.object({
  sort: z.enum(["total", "change_7d", "added"]).catch("added"),
  order: z.enum(["desc", "asc"]).catch("desc"),
  filter: z.enum(["growing", "uncounted", ""]).catch(""),
  q: z
    .string()
    .trim()
    .max(MAX_SEARCH)
    .refine((text) => !/[\u0000-\u001f]/.test(text))
    .catch(""),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
});

export type ListParams = z.infer<typeof listParamsSchema>;

export const DEFAULT_LIST_PARAMS: ListParams = listParamsSchema.parse({});

const KEYS = Object.keys(DEFAULT_LIST_PARAMS) as (keyof ListParams)[];

export function parseListParams(search: Pick<URLSearchParams, "get">): ListParams {
  return listParamsSchema.parse(Object.fromEntries(KEYS.map((key) => [key, search.get(key) ?? undefined])));
}

/** The address's query for `params`: `?…` with what differs from the defaults, or "" for the plain list. */
export function listSearch(params: ListParams): string {
  const query = new URLSearchParams();
  for (const key of KEYS) if (params[key] !== DEFAULT_LIST_PARAMS[key]) query.set(key, String(params[key]));
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * The list after a change: another sort, filter or search starts again at page 1 (the old page number would
 * name other rows); a new column sorts from the top, the same column flips its order.
 */
export function changeList(params: ListParams, change: { sort: ListParams["sort"] } | Partial<Pick<ListParams, "filter" | "q" | "page">>): ListParams {
  if ("sort" in change) {
    const order = params.sort === change.sort && params.order === "desc" ? "asc" : "desc";
    return { ...params, sort: change.sort, order, page: 1 };
  }
  return { ...params, ...change, page: change.page ?? 1 };
}
