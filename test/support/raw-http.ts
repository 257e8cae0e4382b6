import http from "node:http";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the request body written before the answer arrived. */
  sent: number;
}

/** A body sent as `times` copies of `chunk`, as fast as the connection takes them. */
export interface StreamedBody {
  chunk: Buffer;
  times: number;
}

/**
 * One request to the server at `baseUrl` with its target sent verbatim (`*`, `http://host/path` as well as
 * paths), optionally with a body streamed in chunks; stops sending once the answer has arrived and reports
 * how much of the body was sent by then (a server that answers early never read the rest).
 */
export function rawRequest(baseUrl: string, method: string, target: string, headers: Record<string, string> = {}, body?: StreamedBody): Promise<RawAnswer> {
  const { hostname, port, host } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({ host: hostname, port, method, path: target, headers: { Host: host, ...headers } }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text, sent }));
      res.on("error", reject);
    });
    // The server may answer and close the connection while the rest of the body is still going out: writing
    // then fails, but the answer is what counts. Only a connection that closes unanswered is a failure.
    let failure: Error | null = null;
    req.on("error", (error) => (failure = error));
    req.on("close", () => {
      if (!answered) reject(failure ?? new Error("closed without an answer"));
    });
    if (!body) return void req.end();
    // Like a client sending Expect: 100-continue, give the server a moment to refuse on the headers alone.
    req.flushHeaders();
    let left = body.times;
    const pump = () => {
      while (left > 0 && !answered) {
        left--;
        sent += body.chunk.length;
        if (!req.write(body.chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    setTimeout(pump, 100);
  });
}
