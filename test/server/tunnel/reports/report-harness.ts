import { gzipSync } from "node:zlib";
import type { FakeIngest } from "../../../support/fake-ingest";
import { receivedItems } from "../../../support/envelopes";
import { send } from "../harness";

export interface Discarded {
  reason: string;
  category: string;
  quantity: number;
}

export const dsnOf = (ingest: FakeIngest, project = 1) => `http://key${project}@127.0.0.1:${ingest.port}/${project}`;

/** An envelope with items of these types (`event` payloads are `event`, the others small JSON), its header naming `dsn`. */
export function envelopeOf(dsn: string, items: string[], event: Record<string, unknown> = { message: "hi" }): Buffer {
  const lines = [JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", dsn })];
  for (const type of items) {
    const payload = Buffer.from(type === "event" || type === "transaction" ? JSON.stringify(event) : type === "attachment" ? "binary\ndata" : "{}");
    lines.push(JSON.stringify({ type, length: payload.length }), payload.toString("utf8"));
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

export const post = (port: number, body: Buffer, options: { project?: number; gzip?: boolean } = {}) =>
  send(port, `/monitoring?p=${options.project ?? 1}`, {
    body: options.gzip ? gzipSync(body) : body,
    headers: { "content-type": "text/plain;charset=UTF-8", ...(options.gzip ? { "content-encoding": "gzip" } : {}) },
  });

/** Every client report the ingest received, as their discarded_events, in arrival order. */
export function reportsAt(ingest: FakeIngest): Discarded[][] {
  return receivedItems(ingest, "client_report").map((item) => item.payload.discarded_events as Discarded[]);
}

/** The reports' entries summed by reason and category, sorted. */
export function summed(reports: Discarded[][]): Discarded[] {
  const totals = new Map<string, number>();
  for (const entry of reports.flat()) totals.set(`${entry.reason} ${entry.category}`, (totals.get(`${entry.reason} ${entry.category}`) ?? 0) + entry.quantity);
  return [...totals].map(([key, quantity]) => {
    const [reason = "", category = ""] = key.split(" ");
    return { reason, category, quantity };
  }).sort((a, b) => `${a.reason} ${a.category}`.localeCompare(`${b.reason} ${b.category}`));
}

/** Envelopes the ingest received that are no client report. */
export const forwardedAt = (ingest: FakeIngest) => ingest.requests.filter((request) => request.complete && !request.body.includes('"type":"client_report"'));
