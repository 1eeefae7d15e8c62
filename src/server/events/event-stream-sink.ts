import type { Backlog, ChannelSubscriber } from "./channel-registry";
import { compareEventIds } from "./event-id";
import { eventFrame, HEARTBEAT_FRAME, noticeFrame, retryFrame, type StoredEvent } from "./sse-format";

/** Why a stream ended: its client left, the process is shutting down, or the client stopped reading. */
export type StreamEndReason = "client" | "shutdown" | "slow";

/** The event a reconnecting client gets when events after its Last-Event-ID are no longer kept. */
export const MISSED_EVENT = "missed";

/** What every stream of a process shares: one object, so an open stream costs no closures of its own. */
export interface SinkSettings {
  retryMs: number;
  /** Bytes queued for a client that is not reading, past which its connection is closed. */
  maxBufferedBytes: number;
  onEnd(sink: EventStreamSink, reason: StreamEndReason): void;
}

/** The stream's HTTP response, as far as knowing it has ended and cutting its connection go. */
export interface StreamConnection {
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  once(event: "close", listener: () => void): unknown;
  destroy(): void;
}

// Frames are queued by their bytes: with a high-water mark of 0, the queue's size is what the client has not taken.
const QUEUE = { highWaterMark: 0, size: (chunk: Uint8Array) => chunk.byteLength };

/**
 * One open stream: the body of its Response, and the channel's subscriber. Once the bytes queued
 * for a client that stopped reading pass the bound, the stream errors, which destroys the
 * connection (memory never grows with a stalled reader). Live events wait while the backlog is
 * read, then each id is sent once, in order. It is its own stream source (start, cancel).
 */
export class EventStreamSink implements ChannelSubscriber, UnderlyingDefaultSource<Uint8Array> {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #lastId: string | undefined;
  #held: StoredEvent[] | undefined = [];
  #ended = false;
  readonly #settings: SinkSettings;

  constructor(
    settings: SinkSettings,
    readonly channel: string,
    readonly clientKey: string,
    /** The client's Last-Event-ID, already checked: events up to it are never sent again. */
    readonly resumeFrom: string | undefined,
    readonly connection: StreamConnection,
  ) {
    this.#settings = settings;
    this.#lastId = resumeFrom;
    this.body = new ReadableStream<Uint8Array>(this, QUEUE);
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#controller = controller;
    // Sent at once: the client sees the response start, and learns how soon to come back.
    controller.enqueue(retryFrame(this.#settings.retryMs));
  }

  cancel(): void {
    this.#end("client");
  }

  get ended(): boolean {
    return this.#ended;
  }

  deliver(event: StoredEvent, frame?: Uint8Array): void {
    if (this.#held) {
      this.#held.push(event);
      return;
    }
    if (this.#lastId !== undefined && compareEventIds(event.id, this.#lastId) <= 0) return;
    this.#lastId = event.id;
    this.#write(frame ?? eventFrame(event));
  }

  /** Sends what the client missed (and says so when some of it is gone), then the events that came meanwhile. */
  goLive({ events, missed }: Backlog): void {
    if (missed) this.#write(noticeFrame(MISSED_EVENT, { lastEventId: this.resumeFrom, kept: events.length }));
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const event of events) this.deliver(event);
    for (const event of held) this.deliver(event);
  }

  heartbeat(): void {
    this.#write(HEARTBEAT_FRAME);
  }

  /** Ends the stream cleanly with a retry hint: the client comes back after `retryMs`, to whichever replica takes it. */
  shutdown(retryMs: number): void {
    if (this.#ended) return;
    this.#write(retryFrame(retryMs));
    if (this.#ended) return;
    this.#controller.close();
    this.#end("shutdown");
  }

  /** Resolves once the response is over: its last chunk sent (shutdown), or its connection gone. */
  closed(): Promise<void> {
    const { connection } = this;
    if (connection.destroyed || connection.writableFinished) return Promise.resolve();
    return new Promise((resolve) => connection.once("close", resolve));
  }

  /** Cuts the connection if the stream's end could not be sent (a client not reading). */
  abandon(): void {
    if (!this.connection.writableFinished) this.connection.destroy();
  }

  #write(frame: Uint8Array): void {
    if (this.#ended) return;
    this.#controller.enqueue(frame);
    const queued = -(this.#controller.desiredSize ?? 0);
    if (queued <= this.#settings.maxBufferedBytes) return;
    this.#controller.error(new Error("event stream: the client stopped reading"));
    this.#end("slow");
  }

  #end(reason: StreamEndReason): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#held = undefined;
    this.#settings.onEnd(this, reason);
  }
}
