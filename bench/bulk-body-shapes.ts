/** The bodies `npm run bench:bodies` posts: each shape a client or an attacker sends, at the maximum size. */

export const MAX_BODY = 24 * 1024 * 1024;

export interface Shape {
  name: string;
  /** What every one of the four must be answered: the measure is meaningless otherwise. */
  expect: { status: number; type: string };
  /** Where the body goes (the key in the query string, or none). */
  path: (key: string) => string;
  contentType: string;
  /** The body, at most MAX_BODY bytes. */
  body: (key: string) => Buffer;
}

/** Distinct URLs of about 40 characters: about 630,000 of them in 24 MiB. */
function urlLines(bytes: number, separator = "\n"): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `https://example.com/bench/page-${i}${separator}`;
    parts.push(line);
    size += line.length;
  }
  return parts.join("").slice(0, bytes);
}

const fit = (text: string, tail = "") => Buffer.from(text.slice(0, MAX_BODY - tail.length) + tail);

/** 900 distinct URLs, repeated to fill `bytes`: repeats are dropped, not counted, so the whole body is read. */
function repeatedUrlLines(bytes: number, separator = "\n"): string {
  const lines = Array.from({ length: 900 }, (_, i) => `https://example.com/bench/repeated-${i}${separator}`).join("");
  return lines.repeat(Math.ceil(bytes / lines.length)).slice(0, bytes);
}

const percentEncoded = (text: string) => text.replaceAll("\n", "%0A").replaceAll(":", "%3A").replaceAll("/", "%2F");
const accepted = { status: 200, type: "" };
const MULTIPART = "multipart/form-data; boundary=BENCHBOUNDARY";
const multipartField = (name: string, value: string, filename?: string) =>
  `--BENCHBOUNDARY\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n\r\n${value}\r\n`;

export const SHAPES: Shape[] = [
  {
    name: "urlencoded form, no key",
    expect: { status: 401, type: "missing_api_key" },
    path: () => "/v1.0/bulk",
    contentType: "application/x-www-form-urlencoded",
    // Percent-encoding makes each line about 1.4 times longer: enough lines to fill the body once encoded.
    body: () => fit(`urls=${urlLines(MAX_BODY).replaceAll("\n", "%0A").replaceAll(":", "%3A").replaceAll("/", "%2F")}`),
  },
  {
    name: "plain lines, key in the query (dedicated: 10,000 per job)",
    expect: { status: 400, type: "bulk_limit_exceeded" },
    path: (key) => `/v1.0/bulk?apikey=${key}`,
    contentType: "text/plain",
    body: () => fit(urlLines(MAX_BODY)),
  },
  {
    name: "JSON list, key after the URLs",
    expect: { status: 400, type: "bulk_limit_exceeded" },
    path: () => "/v1.0/bulk",
    contentType: "application/json",
    body: (key) => {
      const tail = `"],"apikey":"${key}"}`;
      return fit(`{"urls":["${urlLines(MAX_BODY, '","')}`, tail);
    },
  },
  {
    name: "multipart urls file, key after it",
    expect: { status: 400, type: "bulk_limit_exceeded" },
    path: () => "/v1.0/bulk",
    contentType: "multipart/form-data; boundary=BENCHBOUNDARY",
    body: (key) => {
      const head = '--BENCHBOUNDARY\r\nContent-Disposition: form-data; name="urls"; filename="urls.txt"\r\nContent-Type: text/plain\r\n\r\n';
      const tail = `\r\n--BENCHBOUNDARY\r\nContent-Disposition: form-data; name="apikey"\r\n\r\n${key}\r\n--BENCHBOUNDARY--\r\n`;
      return fit(head + urlLines(MAX_BODY), tail);
    },
  },
  // What a careless client or an attacker sends: every byte has to be read, and none of it may pile up.
  {
    name: "plain lines, 900 URLs repeated, key in the query",
    expect: accepted,
    path: (key) => `/v1.0/bulk?apikey=${key}`,
    contentType: "text/plain",
    body: () => fit(repeatedUrlLines(MAX_BODY)),
  },
  {
    name: "urlencoded form, key first, 900 URLs repeated",
    expect: accepted,
    path: () => "/v1.0/bulk",
    contentType: "application/x-www-form-urlencoded",
    body: (key) => fit(`apikey=${key}&urls=${percentEncoded(repeatedUrlLines(MAX_BODY))}`),
  },
  {
    name: "multipart, key first, 900 URLs repeated",
    expect: accepted,
    path: () => "/v1.0/bulk",
    contentType: MULTIPART,
    body: (key) => {
      const tail = "\r\n--BENCHBOUNDARY--\r\n";
      return fit(multipartField("apikey", key) + multipartField("urls", repeatedUrlLines(MAX_BODY), "urls.txt").slice(0, -2), tail);
    },
  },
  {
    name: "JSON list, 900 URLs repeated, key after them",
    expect: accepted,
    path: () => "/v1.0/bulk",
    contentType: "application/json",
    body: (key) => {
      const tail = `"],"apikey":"${key}"}`;
      return fit(`{"urls":["${repeatedUrlLines(MAX_BODY, '","')}`, tail);
    },
  },
  {
    name: "JSON urls as one 24 MiB string of lines (4 MiB at most)",
    expect: { status: 400, type: "invalid_body" },
    path: () => "/v1.0/bulk",
    contentType: "application/json",
    body: (key) => fit(`{"urls":"${urlLines(MAX_BODY).replaceAll("\n", "\\n")}`, `","apikey":"${key}"}`),
  },
  {
    name: "JSON with one 24 MiB number, no key",
    expect: { status: 400, type: "invalid_body" },
    path: () => "/v1.0/bulk",
    contentType: "application/json",
    body: () => fit(`{"x":${"1".repeat(MAX_BODY)}`, `,"urls":["https://example.com/"]}`),
  },
  {
    name: "JSON with one 24 MiB string of escapes, no key",
    expect: { status: 400, type: "invalid_body" },
    path: () => "/v1.0/bulk",
    contentType: "application/json",
    body: () => fit(`{"x":"${"\\u0041".repeat(MAX_BODY / 6)}`, `","urls":["https://example.com/"]}`),
  },
  {
    name: "JSON with a 24 MiB apikey",
    expect: { status: 400, type: "invalid_body" },
    path: () => "/v1.0/bulk",
    contentType: "application/json",
    body: () => fit(`{"urls":["https://example.com/"],"apikey":"${"a".repeat(MAX_BODY)}`, `"}`),
  },
  {
    name: "plain carriage returns only, key in the query",
    expect: { status: 400, type: "no_valid_urls" },
    path: (key) => `/v1.0/bulk?apikey=${key}`,
    contentType: "text/plain",
    body: () => Buffer.alloc(MAX_BODY, "\r"),
  },
];
