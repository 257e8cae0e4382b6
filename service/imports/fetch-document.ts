import { STATUS_CODES } from "node:http";
import { request, type Dispatcher } from "undici";
import { counted, gunzipped, limited } from "./document-body.ts";
import { createGuardedAgent, HostNotFound, RefusedAddress, type HostLookup } from "../../lib/net/guarded-agent.ts";
import { documentAt, ImportError, ImportStopped, type DocumentKind } from "./import-error.ts";
import { hostRefusal, type AddressPolicy } from "../../lib/net/public-address.ts";
import { discard, settleOrAbort } from "../../lib/net/settle-or-abort.ts";
import type { SourceLimits } from "./source-limits.ts";

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HEADERS = {
  "user-agent": "sharecount-importer (+https://github.com/sharecount)",
  accept: "application/xml, text/xml, application/rss+xml, application/atom+xml, */*;q=0.5",
  "accept-encoding": "gzip",
};
const READABLE_ENCODINGS = new Set(["", "identity", "gzip", "x-gzip"]);

/** Seams for tests; callers in the service pass none. */
export interface FetchSeams {
  /** Resolves host names at connect time (default: node:dns `lookup`, all addresses). */
  lookup?: HostLookup;
  /** Addresses treated as public, so a loopback server can stand in for a public host. */
  alsoPublic?: readonly string[];
}

export interface FetchedDocument {
  /** Where the document was found: the requested URL after redirects. */
  url: string;
  /** The body, decompressed, ending with an ImportError past `maxBytes`. */
  chunks: AsyncIterable<Buffer>;
}

export interface DocumentFetcher {
  /**
   * Fetches one document and hands its body to `consume`, all within `timeoutMs`. When `consume` settles the
   * body is let go, read to its end or not (then its connection is closed). Any failure is an ImportError.
   */
  read<T>(url: string, kind: DocumentKind, consume: (document: FetchedDocument) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Closes the connections kept for further documents. */
  close(): Promise<void>;
}

/** One fetcher per import: its documents share connections, and every connection goes through the guard. */
export function createDocumentFetcher(limits: SourceLimits, seams: FetchSeams = {}): DocumentFetcher {
  const policy: AddressPolicy = { allowPrivateHosts: limits.allowPrivateHosts, alsoPublic: new Set(seams.alsoPublic) };
  const agent = createGuardedAgent({ ...policy, lookup: seams.lookup, connectTimeoutMs: limits.timeoutMs });
  const megabytes = formatMegabytes(limits.maxBytes);
  /** Bytes of all the documents read so far (after decompression): the import's own bound. */
  let importBytes = 0;
  const byteLimit = () => new ImportStopped("byte_limit");

  async function read<T>(requested: string, kind: DocumentKind, consume: (document: FetchedDocument) => Promise<T>, signal?: AbortSignal) {
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    let current = requested;
    // Messages name the URL asked for, and the one redirected to when that is where things went wrong.
    const subject = () => (current === requested ? documentAt(kind, requested) : `${documentAt(kind, requested)} redirects to ${current}, which`);
    const tooLarge = () => new ImportError(`${subject()} is larger than ${megabytes} MB (after decompression), the most one document may hold.`);
    let body: Dispatcher.ResponseData["body"] | undefined;
    try {
      let url = parseUrl(requested, kind);
      for (let redirects = 0; ; redirects += 1) {
        const refusal = url.protocol === "http:" || url.protocol === "https:" ? hostRefusal(url.hostname, policy) : "only http and https URLs can be read";
        if (refusal) throw new ImportError(`${subject()} cannot be fetched: ${refusal}.`);
        const response = await settleOrAbort(request(url, { dispatcher: agent, method: "GET", headers: HEADERS, signal: combined }), combined);
        body = response.body;
        const status = response.statusCode;
        if (REDIRECT_STATUSES.has(status)) {
          discard(body);
          if (redirects === MAX_REDIRECTS) throw new ImportError(`${documentAt(kind, requested)} redirects more than ${MAX_REDIRECTS} times.`);
          const location = firstHeader(response.headers.location);
          if (!location) throw new ImportError(`${subject()} answered with a redirect (HTTP ${status}) that says nowhere to go.`);
          const target = urlOrNull(location, url);
          if (!target) throw new ImportError(`${subject()} redirects to "${location}", which is not a valid URL.`);
          url = target;
          current = target.href;
          continue;
        }
        if (status < 200 || status > 299) {
          throw new ImportError(`${subject()} could not be fetched: the server answered HTTP ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ""}.`);
        }
        const encoding = (firstHeader(response.headers["content-encoding"]) ?? "").trim().toLowerCase();
        if (!READABLE_ENCODINGS.has(encoding)) throw new ImportError(`${subject()} is sent with Content-Encoding: ${encoding}, which cannot be read.`);
        if (Number(firstHeader(response.headers["content-length"])) > limits.maxBytes) throw tooLarge();
        const document = limited(gunzipped(limited(body, limits.maxBytes, tooLarge)), limits.maxBytes, tooLarge);
        const chunks = counted(document, (bytes) => (importBytes += bytes) <= limits.maxImportBytes, byteLimit);
        return await consume({ url: url.href, chunks });
      }
    } catch (error) {
      if (error instanceof ImportError || error instanceof ImportStopped) throw error;
      // The import itself was stopped (its time limit, a cancel, its worker stopping): it says why.
      if (signal?.aborted && signal.reason instanceof ImportStopped) throw signal.reason;
      if (timeout.aborted) throw new ImportError(`${subject()} did not load within ${formatSeconds(limits.timeoutMs)}.`);
      if (signal?.aborted) throw new ImportError(`Reading the ${kind} at ${requested} was cancelled.`);
      throw new ImportError(`${subject()} ${failure(error)}.`);
    } finally {
      if (body) discard(body);
    }
  }

  return { read, close: () => agent.destroy() };
}

// URL.parse arrived in Node 22.
function urlOrNull(input: string, base?: URL): URL | null {
  try {
    return new URL(input, base);
  } catch {
    return null;
  }
}

function parseUrl(input: string, kind: DocumentKind): URL {
  const url = urlOrNull(input.trim());
  if (!url) throw new ImportError(`The ${kind} URL "${input}" is not a valid URL (it must start with http:// or https://).`);
  return url;
}

/** Closes a body that will not be read (further); undici reports that as an error no one needs to hear. */
const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const FAILURES: Record<string, string> = {
  ECONNREFUSED: "could not be fetched: the server refused the connection",
  ECONNRESET: "could not be fetched: the server reset the connection",
  EHOSTUNREACH: "could not be fetched: the host cannot be reached",
  ENETUNREACH: "could not be fetched: the host cannot be reached",
  ETIMEDOUT: "could not be fetched: the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "could not be fetched: the connection timed out",
  UND_ERR_SOCKET: "could not be fetched: the server closed the connection before the whole document arrived",
  UND_ERR_HEADERS_OVERFLOW: "could not be fetched: the server's answer has too large headers",
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: "could not be fetched: the server sent a different length than it announced",
  Z_DATA_ERROR: "is not valid gzip data",
  Z_BUF_ERROR: "is cut short: its gzip data ends early",
};

/** A lower-level failure in words for the user (the error itself is not passed on): what follows the subject. */
function failure(error: unknown): string {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof RefusedAddress) {
      return `cannot be fetched: its host name ${cause.hostname} resolves to ${cause.address}, a loopback, private, link-local or reserved address, and only public hosts can be read`;
    }
    if (cause instanceof HostNotFound) return `could not be fetched: the host name ${cause.hostname} could not be resolved (${cause.reason})`;
    const code = (cause as NodeJS.ErrnoException).code;
    if (code && FAILURES[code]) return FAILURES[code];
    if (code?.startsWith("HPE_")) return "could not be fetched: the server's answer is not valid HTTP";
    if (code && /CERT|TLS|SSL/.test(code)) return `could not be fetched: its TLS certificate could not be verified (${code})`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ? `could not be fetched: the connection failed (${code})` : "could not be fetched: the connection failed";
}

const formatSeconds = (ms: number) => (ms === 1000 ? "1 second" : `${ms / 1000} seconds`);

function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return String(megabytes >= 1 ? Math.round(megabytes * 10) / 10 : Number(megabytes.toPrecision(2)));
}
