import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import { useEffect } from "react";
import { DashboardError } from "../dashboard-error.ts";
import { fetchJson } from "../fetch-json.ts";
import { formatNumber } from "../format.ts";
import { NOTHING_ADDED, sumTrackAnswers, trackBatches } from "../tracked/add-batches.ts";
import { isImportFinished } from "../tracked/import-progress.ts";
import type {
  AddAnswer,
  HistoryAnswer,
  ImportSource,
  ImportState,
  SortOrder,
  TrackAnswer,
  TrackedList,
  TrackedSort,
  TrackedStatus,
  TrackedUrlDetail,
} from "../tracked/types.ts";
import { TRACKED_PAGE_SIZE } from "../tracked/list-params.ts";
import { historyPath, type UrlView } from "../tracked/url-view.ts";

/** The tracked URLs' data: the list, the account's slots, additions and imports, one URL's detail and history. */

/** A new URL is counted within a minute; until then the views that show it ask again this often. */
const FIRST_COUNT_POLL_MS = 3_000;
const IMPORT_POLL_MS = 1_000;

export interface TrackedListQuery {
  sort: TrackedSort;
  order: SortOrder;
  /** Only URLs containing this text; "" for all. */
  q: string;
  /** Only growing URLs, or only those not counted yet; "" for all. */
  filter: "" | "growing" | "uncounted";
}

type TrackedPages = InfiniteData<TrackedList, string | null>;

export const trackedKeys = {
  all: ["tracked"] as const,
  lists: ["tracked", "list"] as const,
  list: (query: TrackedListQuery) => ["tracked", "list", query] as const,
  status: ["tracked", "status"] as const,
  detail: (url: string) => ["tracked", "url", url] as const,
  /** With the URL's last refresh time, so each refresh brings its new points. */
  history: (view: UrlView, refreshedAt: string | null) => ["tracked", "history", view, refreshedAt] as const,
  import: (id: string) => ["tracked-import", id] as const,
};

/**
 * After URLs were added or removed: every tracked view is out of date. A list refetches each page it has loaded,
 * which after paging through 50,000 URLs is 500 requests, so only its first page is kept and the rest load
 * again when shown.
 */
function refreshTracked(queryClient: QueryClient) {
  queryClient.setQueriesData<TrackedPages>(
    { queryKey: trackedKeys.lists },
    (data) => data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) },
  );
  return queryClient.invalidateQueries({ queryKey: trackedKeys.all });
}

function listPath(query: TrackedListQuery, cursor: string | null): string {
  const params = new URLSearchParams({ sort: query.sort, order: query.order, limit: String(TRACKED_PAGE_SIZE) });
  if (query.q) params.set("q", query.q);
  if (query.filter) params.set("filter", query.filter);
  if (cursor) params.set("cursor", cursor);
  return `/api/dashboard/tracked?${params}`;
}

/**
 * Whether to ask again for counts that are on their way: while a loaded row was never counted, as long as only
 * a few pages are loaded (refetching a long scroll every few seconds would cost more than it shows).
 */
function awaitingFirstCount(data: TrackedPages | undefined): boolean {
  return data !== undefined && data.pages.length <= 2 && data.pages.some((page) => page.data.some((row) => row.last_refreshed_at === null));
}

/** The account's tracked URLs, a page at a time through the API's cursor, in the order and with the search asked for. */
export function useTrackedList(query: TrackedListQuery) {
  return useInfiniteQuery({
    queryKey: trackedKeys.list(query),
    queryFn: ({ pageParam, signal }) => fetchJson<TrackedList>(listPath(query, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    // A new sort or search keeps the last rows on screen until its own arrive, rather than flashing empty.
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (awaitingFirstCount(q.state.data) ? FIRST_COUNT_POLL_MS : false),
  });
}

/** Slots used of the plan's limit, and whether refreshes run late. */
export function useTrackedStatus() {
  return useQuery({
    queryKey: trackedKeys.status,
    queryFn: () => fetchJson<TrackedStatus>("/api/dashboard/tracked/status"),
    refetchInterval: 60_000,
  });
}

/**
 * Tracks URLs, as many requests as the list needs (see trackBatches), one after the other; `onProgress` hears
 * how many were sent. A failure after the first request says what was added before it.
 */
export function useAddUrls() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ urls, onProgress }: { urls: string[]; onProgress?: (sent: number) => void }): Promise<TrackAnswer> => {
      let total = NOTHING_ADDED;
      let sent = 0;
      for (const batch of trackBatches(urls)) {
        try {
          const answer = await fetchJson<AddAnswer>("/api/dashboard/tracked", { method: "POST", json: { urls: batch } });
          if (answer.kind === "added") total = sumTrackAnswers(total, answer);
        } catch (error) {
          if (sent === 0 || !(error instanceof Error)) throw error;
          throw new Error(
            `${error.message} The first ${formatNumber(sent)} URLs were sent before that: ${formatNumber(total.added)} added, ${formatNumber(total.already_tracked)} already tracked.`,
          );
        }
        sent += batch.length;
        onProgress?.(sent);
      }
      return total;
    },
    // Settled, not succeeded: a failure part-way may have added some.
    onSettled: () => refreshTracked(queryClient),
  });
}

/** Queues a sitemap or feed import; its id is followed with useImportProgress. */
export function useStartImport() {
  return useMutation({
    mutationFn: async ({ source, url }: { source: ImportSource; url: string }) => {
      const answer = await fetchJson<AddAnswer>("/api/dashboard/tracked", { method: "POST", json: { [source]: url } });
      if (answer.kind !== "import") throw new Error("The import could not be started.");
      return answer.importId;
    },
  });
}

/** An import's progress, asked every second until it is done or failed; then the tracked views refresh. */
export function useImportProgress(id: string | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: trackedKeys.import(id ?? ""),
    queryFn: () => fetchJson<ImportState>(`/api/dashboard/imports/${encodeURIComponent(id!)}`),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.error || isImportFinished(q.state.data) ? false : IMPORT_POLL_MS),
  });
  const finished = isImportFinished(query.data);
  useEffect(() => {
    if (finished) void refreshTracked(queryClient);
  }, [finished, queryClient]);
  return query;
}

/** Cancels a queued or running import; its progress is asked again at once to show it stopped. */
export function useCancelImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson(`/api/dashboard/imports/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: trackedKeys.import(id) }),
  });
}

/** Stops tracking a URL; its row leaves the loaded pages at once, without refetching them. */
export function useRemoveUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => fetchJson<{ removed: string }>(`/api/dashboard/tracked?url=${encodeURIComponent(url)}`, { method: "DELETE" }),
    onSuccess: (_answer, url) => {
      queryClient.setQueriesData<TrackedPages>(
        { queryKey: trackedKeys.lists },
        (data) => data && { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.filter((row) => row.url !== url) })) },
      );
      return queryClient.invalidateQueries({ queryKey: trackedKeys.all, predicate: (q) => q.queryKey[1] !== "list" });
    },
  });
}

/** URLs removed at a time: a selection of hundreds goes in a few seconds without a burst of hundreds of requests. */
const REMOVE_CONCURRENCY = 4;

export interface RemoveOutcome {
  removed: string[];
  failed: { url: string; message: string }[];
}

/**
 * Stops tracking several URLs (the list's selection), a few at a time; `onProgress` hears how many were done.
 * One that is no longer tracked counts as removed. The lists load again after, so their pages line up.
 */
export function useRemoveUrls() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ urls, onProgress }: { urls: readonly string[]; onProgress?: (done: number) => void }): Promise<RemoveOutcome> => {
      const outcome: RemoveOutcome = { removed: [], failed: [] };
      for (let at = 0; at < urls.length; at += REMOVE_CONCURRENCY) {
        const batch = urls.slice(at, at + REMOVE_CONCURRENCY);
        const settled = await Promise.allSettled(batch.map((url) => fetchJson(`/api/dashboard/tracked?url=${encodeURIComponent(url)}`, { method: "DELETE" })));
        settled.forEach((result, i) => {
          const url = batch[i]!;
          if (result.status === "fulfilled" || isNotTracked(result.reason)) outcome.removed.push(url);
          else outcome.failed.push({ url, message: result.reason instanceof Error ? result.reason.message : String(result.reason) });
        });
        onProgress?.(at + batch.length);
      }
      return outcome;
    },
    onSettled: () => refreshTracked(queryClient),
  });
}

/** The account does not track it (or it is no countable URL): the page says so instead of an error. */
export const isNotTracked = (error: unknown) =>
  error instanceof DashboardError && (error.code === "tracked_url_not_found" || error.code === "invalid_url");

const awaitingCount = (detail: TrackedUrlDetail) => detail.last_refreshed_at === null || detail.forms.some((form) => form.observed_at === null);

const trackedUrlQuery = (url: string) => ({
  queryKey: trackedKeys.detail(url),
  queryFn: () => fetchJson<TrackedUrlDetail>(`/api/dashboard/tracked/url?url=${encodeURIComponent(url)}`),
  retry: (failures: number, error: Error) => !isNotTracked(error) && failures < 1,
});

/**
 * One tracked URL: counts, refresh times, aliases and each counted form. Asked for often while the URL or a
 * form (a new alias) waits for its first count, and every minute after that, so the refresh times stay true.
 */
export function useTrackedUrl(url: string) {
  return useQuery({
    ...trackedUrlQuery(url),
    refetchInterval: (q) => (q.state.data === undefined ? false : awaitingCount(q.state.data) ? FIRST_COUNT_POLL_MS : 60_000),
  });
}

/** Whether the account tracks a URL (an error isNotTracked says it does not): asked once, and again after additions. */
export const useIsTracked = (url: string) => useQuery(trackedUrlQuery(url));

/** Replaces the URL's aliases; the detail is loaded again, since its forms and totals change with them. */
export function useSaveAliases(url: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (aliases: string[]) =>
      fetchJson<{ url: string; aliases: string[] }>("/api/dashboard/tracked/aliases", { method: "PUT", json: { url, aliases } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trackedKeys.detail(url) }),
  });
}

/** The URL's points over the view's range and interval. */
export function useHistory(view: UrlView, refreshedAt: string | null) {
  return useQuery({
    queryKey: trackedKeys.history(view, refreshedAt),
    queryFn: () => fetchJson<HistoryAnswer>(historyPath(view)),
    // Another range keeps the last chart on screen until its own points arrive.
    placeholderData: keepPreviousData,
  });
}
