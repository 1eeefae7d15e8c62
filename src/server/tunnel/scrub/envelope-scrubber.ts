import { type EnvelopePart, EnvelopeItemStream, type ItemStart, itemHeaderLine } from "../envelope/item-stream";
import { itemCategory } from "../envelope/items";
import type { ScrubCounts } from "./rules";
import { scrubEvent } from "./scrub-event";

const NEWLINE = Buffer.from("\n");
/** Item types whose payload is an event the rules apply to; every other item passes byte for byte. */
const SCRUBBED_TYPES = new Set(["event", "transaction"]);
/** Relay's own limit on one event (max_event_size): a larger one cannot be scrubbed, so it is dropped. */
export const MAX_EVENT_BYTES = 1024 * 1024;

/** An item the tunnel did not forward, for client reports (`discarded_events`). */
export interface ScrubDrop {
  reason: "invalid";
  category: string;
  quantity: number;
}

export interface ScrubSettings {
  /** Mask addresses in strings and remove `user.ip_address` (SENTRY_TUNNEL_FORWARD_IP is not `full`). */
  ips: boolean;
  maxEventBytes?: number;
}

export interface ScrubEvents {
  /** The envelope's header line (its `dsn` names whose drops these are). */
  header(line: Buffer): void;
  scrubbed(counts: ScrubCounts): void;
  dropped(drop: ScrubDrop): void;
}

interface Collecting {
  item: ItemStart;
  chunks: Buffer[];
  bytes: number;
  tooLarge: boolean;
}

/**
 * Rewrites a decoded envelope as it streams: the envelope header and other items go out as
 * they came (views of the input, no copy); each event or transaction is held until its end
 * (at most `maxEventBytes`, past which it is dropped, not held), scrubbed, and written with its
 * `length` corrected. One that is no JSON object is dropped too: it cannot be scrubbed.
 */
export class EnvelopeScrubber {
  readonly #reader = new EnvelopeItemStream();
  readonly #settings: Required<ScrubSettings>;
  readonly #events: ScrubEvents;
  /** The item being read: held to be scrubbed, or passed on (`pass`). */
  #current: Collecting | "pass" | undefined;

  constructor(settings: ScrubSettings, events: ScrubEvents) {
    this.#settings = { maxEventBytes: MAX_EVENT_BYTES, ...settings };
    this.#events = events;
  }

  /** Decoded bytes in, bytes to send out (possibly none yet). */
  push(decoded: Buffer): Buffer[] {
    return this.#write(this.#reader.push(decoded));
  }

  end(): Buffer[] {
    return this.#write(this.#reader.end());
  }

  #write(parts: EnvelopePart[]): Buffer[] {
    const out: Buffer[] = [];
    for (const part of parts) {
      if (part.kind === "header") {
        this.#events.header(part.line);
        out.push(part.line, NEWLINE);
      }
      else if (part.kind === "item") this.#start(part.item, out);
      else if (part.kind === "payload") this.#payload(part.chunk, out);
      else this.#end(out);
    }
    return out;
  }

  #start(item: ItemStart, out: Buffer[]): void {
    if (SCRUBBED_TYPES.has(item.type)) {
      this.#current = { item, chunks: [], bytes: 0, tooLarge: false };
      return;
    }
    this.#current = "pass";
    out.push(item.line, NEWLINE);
  }

  #payload(chunk: Buffer, out: Buffer[]): void {
    const current = this.#current;
    if (current === "pass") return void out.push(chunk);
    if (!current || current.tooLarge) return;
    current.bytes += chunk.length;
    if (current.bytes > this.#settings.maxEventBytes) {
      current.tooLarge = true;
      current.chunks = [];
    } else {
      current.chunks.push(chunk);
    }
  }

  #end(out: Buffer[]): void {
    const current = this.#current;
    this.#current = undefined;
    if (current === "pass") return void out.push(NEWLINE);
    if (!current) return;
    const scrubbed = current.tooLarge ? undefined : this.#scrub(current);
    if (!scrubbed) {
      this.#events.dropped({ reason: "invalid", category: itemCategory(current.item.type), quantity: 1 });
      return;
    }
    out.push(...scrubbed, NEWLINE);
  }

  /** The item's header line, newline and payload, scrubbed; undefined when it cannot be. */
  #scrub({ item, chunks, bytes }: Collecting): Buffer[] | undefined {
    const payload = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, bytes);
    let event: unknown;
    try {
      event = JSON.parse(payload.toString("utf8"));
    } catch {
      return undefined;
    }
    if (typeof event !== "object" || event === null || Array.isArray(event)) return undefined;
    const counts = scrubEvent(event as Record<string, unknown>, this.#settings.ips);
    // Nothing to replace: the item goes as it came.
    if (Object.keys(counts).length === 0) return [item.line, NEWLINE, payload];
    let text: Buffer;
    try {
      text = Buffer.from(JSON.stringify(event));
    } catch {
      // Nested past what JSON.stringify can recurse through.
      return undefined;
    }
    this.#events.scrubbed(counts);
    return [itemHeaderLine(item.header, text.length), NEWLINE, text];
  }
}
