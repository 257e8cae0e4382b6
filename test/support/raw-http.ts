import net from "node:net";

export interface RawAnswer {
  status: number;
  /** Lowercase names. */
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request body written before the answer's first byte arrived. */
  sent: number;
}

/** A body sent as `times` copies of `chunk`, as fast as the connection takes them. */
export interface StreamedBody {
  chunk: Buffer;
  times: number;
}

/**
 * The status line, headers and body (de-chunked) of one HTTP/1.1 answer, or null while it is incomplete
 * (`closed`: the server closed the connection, so what arrived is all there is).
 */
function parseAnswer(raw: Buffer, sent: number, method: string, closed: boolean): RawAnswer | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end === -1) {
    if (closed) throw new Error(`no complete answer: ${JSON.stringify(raw.toString("latin1").slice(0, 200))}`);
    return null;
  }
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(statusLine!.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
  }
  const rest = raw.subarray(end + 4);
  let body: Buffer;
  if (method === "HEAD" || status === 204 || status === 304) {
    body = Buffer.alloc(0);
  } else if (headers["transfer-encoding"]?.includes("chunked")) {
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd === -1) return closed ? { status, headers, body: Buffer.concat(parts).toString("utf8"), sent } : null;
      const size = Number.parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
      if (!size) break;
      if (rest.length < lineEnd + 2 + size + 2 && !closed) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    if (rest.length < length && !closed) return null;
    body = rest.subarray(0, length);
  } else {
    if (!closed) return null;
    body = rest;
  }
  return { status, headers, body: body.toString("utf8"), sent };
}

/**
 * One request to the server at `baseUrl`, on a socket of its own (closed once the answer is in), with its target
 * sent verbatim (`*`, `http://host/path` as well as paths) and optionally a body streamed in chunks, sent once
 * the server asks for it (`Expect: 100-continue`). Sending stops once the answer starts to arrive, and a failed
 * write (the server answered and closed) does not lose the answer. Reports how much of the body was sent by
 * then: a server that answers early never read the rest.
 */
export function rawRequest(baseUrl: string, method: string, target: string, headers: Record<string, string> = {}, body?: StreamedBody): Promise<RawAnswer> {
  const { hostname, port, host } = new URL(baseUrl);
  // With a body, the client waits to be asked for it (or answered without it), as curl does for large bodies.
  const all: Record<string, string> = { Host: host, ...(body ? { Expect: "100-continue" } : {}), ...headers };
  const names = Object.keys(all).map((name) => name.toLowerCase());
  if (body && !names.includes("content-length") && !names.includes("transfer-encoding")) all["Content-Length"] = String(body.chunk.length * body.times);
  const chunked = Object.entries(all).some(([name, value]) => name.toLowerCase() === "transfer-encoding" && value.includes("chunked"));
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;

  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    let sent = 0;
    let sentWhenAnswered: number | null = null;
    let pump = () => {};
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head);
      if (!body) return;
      let left = body.times;
      // One chunk per turn of the event loop: a server that reads as fast as the client writes would otherwise
      // let the writes complete at once, and the loop would send on without ever seeing the answer arrive.
      pump = () => {
        if (sentWhenAnswered !== null || socket.destroyed) return;
        if (left === 0) return void (chunked && socket.write("0\r\n\r\n"));
        left--;
        sent += body.chunk.length;
        const piece = chunked ? Buffer.concat([Buffer.from(`${body.chunk.length.toString(16)}\r\n`), body.chunk, Buffer.from("\r\n")]) : body.chunk;
        if (socket.write(piece)) setImmediate(pump);
        else socket.once("drain", pump);
      };
    });
    let done = false;
    const settle = (closed: boolean) => {
      if (done) return;
      try {
        const answer = parseAnswer(Buffer.concat(received), sentWhenAnswered ?? sent, method, closed);
        if (!answer) return;
        done = true;
        resolve(answer);
        socket.destroy();
      } catch (error) {
        done = true;
        reject(error);
      }
    };
    socket.on("data", (data: Buffer) => {
      received.push(data);
      // The interim answer asks for the body: send it. Anything else is the answer.
      const interim = Buffer.concat(received);
      if (/^HTTP\/1\.1 100 [^\r]*\r\n\r\n/.test(interim.toString("latin1", 0, Math.min(interim.length, 64)))) {
        received.length = 0;
        const rest = interim.subarray(interim.indexOf("\r\n\r\n") + 4);
        if (rest.length > 0) received.push(rest);
        if (received.length === 0) return void pump();
      }
      sentWhenAnswered ??= sent;
      settle(false);
    });
    // A write after the server closed fails; what it answered before is still in hand.
    socket.on("error", () => {});
    socket.on("close", () => settle(true));
  });
}
