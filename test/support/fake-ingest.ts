import { EventEmitter } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake Sentry ingest saw of one request. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The sender's port: equal ports mean a reused connection. */
  remotePort: number | undefined;
  chunks: Buffer[];
  /** performance.now() when the first body byte arrived. */
  firstByteAt: number | undefined;
  /** The whole body arrived. */
  complete: boolean;
  /** The connection closed before the body was complete (the sender aborted). */
  aborted: boolean;
  readonly body: Buffer;
}

export interface FakeResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer;
  /** Wait this long after the request body ended before answering. */
  delayMs: number;
  /** Never answer (read the body, then stay silent). */
  hang: boolean;
  /** Send the headers and half the body, then destroy the connection. */
  destroyMidResponse: boolean;
  /** Answer as soon as the request headers arrive, without waiting for the body. */
  respondBeforeBody: boolean;
  /** Reset the connection as soon as the request headers arrive. */
  resetConnection: boolean;
}

const DEFAULT_RESPONSE: FakeResponse = {
  status: 200,
  headers: { "content-type": "application/json" },
  body: '{"id":"fake"}',
  delayMs: 0,
  hang: false,
  destroyMidResponse: false,
  respondBeforeBody: false,
  resetConnection: false,
};

export interface FakeIngest {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** Change to configure the next answers; `reset()` restores the default 200. */
  response: FakeResponse;
  /** Answers for the next requests, one each, before `response` applies again. */
  queued: Partial<FakeResponse>[];
  /**
   * Overrides the answer for a request whose body it picks out (once the body is in); undefined:
   * no override. Also given the request and the answer chosen for it when it arrived.
   */
  answerFor: ((body: Buffer, request: RecordedRequest, chosen: FakeResponse) => Partial<FakeResponse> | undefined) | undefined;
  reset(): void;
  /** Stops listening and drops every connection: connections are refused until `start()`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Resolves once `predicate` holds, re-checked on every request event; rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeIngest(): Promise<FakeIngest> {
  const changed = new EventEmitter();
  changed.setMaxListeners(0);
  const timers = new Set<NodeJS.Timeout>();
  const requests: RecordedRequest[] = [];

  const answer = (res: ServerResponse, config: FakeResponse) => {
    if (config.hang) return;
    const send = () => {
      const body = Buffer.from(config.body);
      if (config.destroyMidResponse) {
        res.writeHead(config.status, config.headers);
        res.write(body.subarray(0, Math.ceil(body.length / 2)));
        const timer = setTimeout(() => res.socket?.destroy(), 20);
        timers.add(timer);
        return;
      }
      res.writeHead(config.status, { ...config.headers, "content-length": String(body.length) });
      res.end(body);
    };
    if (config.delayMs <= 0) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, config.delayMs);
    timers.add(timer);
  };

  const fake: FakeIngest = {
    port: 0,
    origin: "",
    requests,
    response: { ...DEFAULT_RESPONSE },
    queued: [],
    answerFor: undefined,
    reset() {
      fake.response = { ...DEFAULT_RESPONSE };
      fake.queued.length = 0;
      fake.answerFor = undefined;
      requests.length = 0;
    },
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: () => new Promise((resolve) => server.listen(fake.port, "127.0.0.1", resolve)),
    waitFor(predicate, timeoutMs = 3_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error("fake ingest: condition not reached in time"));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          changed.off("change", check);
        };
        changed.on("change", check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const server = createServer((req, res) => {
    const next = fake.queued.shift();
    const config = next ? { ...fake.response, ...next } : fake.response;
    const record: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      remotePort: req.socket.remotePort,
      chunks: [],
      firstByteAt: undefined,
      complete: false,
      aborted: false,
      get body() {
        return Buffer.concat(this.chunks);
      },
    };
    requests.push(record);
    if (config.resetConnection) {
      req.socket.resetAndDestroy();
      changed.emit("change");
      return;
    }
    req.on("data", (chunk: Buffer) => {
      record.firstByteAt ??= performance.now();
      record.chunks.push(chunk);
      changed.emit("change");
    });
    req.on("end", () => {
      record.complete = true;
      changed.emit("change");
      if (!config.respondBeforeBody) answer(res, { ...config, ...fake.answerFor?.(record.body, record, config) });
    });
    req.on("error", () => {});
    req.on("close", () => {
      if (!record.complete) record.aborted = true;
      changed.emit("change");
    });
    if (config.respondBeforeBody) answer(res, config);
    changed.emit("change");
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.origin = `http://127.0.0.1:${fake.port}`;
  return fake;
}
