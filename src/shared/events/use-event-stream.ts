import { useEffect, useRef, useState } from "react";
import { type ServerSentEvent, sseParser } from "./sse-parser";

/** connecting (first time), open, reconnecting (after an end or a failure), closed (refused: a 4xx other than 429). */
export type EventStreamStatus = "connecting" | "open" | "reconnecting" | "closed";

/** Sent by the server when events after the client's last id are no longer kept: what it got is all there is. */
export interface MissedEvents {
  lastEventId: string;
  /** How many kept events followed it. */
  kept: number;
}

export interface UseEventStreamOptions<Data> {
  /** Each event's data (parsed JSON), once, in order, across reconnects. */
  onMessage?: (data: Data, event: { id: string }) => void;
  /** Some events were missed for good (the client was away longer than the server keeps them): reload what the page shows. */
  onMissed?: (missed: MissedEvents) => void;
}

export interface EventStreamState<Data> {
  status: EventStreamStatus;
  /** The last event's data. */
  data: Data | undefined;
  lastEventId: string | undefined;
  /** Set once events were missed for good (see `onMissed`). */
  missed: boolean;
}

const FIRST_RETRY_MS = 2_000;
const MAX_BACKOFF_MS = 30_000;

/** A wait spread by half either way, so many pages do not come back at once. */
const spread = (ms: number) => Math.round(ms * (0.5 + Math.random()));

/**
 * Subscribes to an event stream URL (a resource route that answers with `eventStream`) while the
 * component is mounted. Reconnects after the server ends the stream (its `retry:` hint) or after a
 * failure (backing off, Retry-After honoured), sending Last-Event-ID so no event is lost or shown
 * twice; stops for good on a refusal (401, 403, 404...). Renders nothing on the server.
 */
export function useEventStream<Data = unknown>(url: string, options: UseEventStreamOptions<Data> = {}): EventStreamState<Data> {
  const [state, setState] = useState<EventStreamState<Data>>({ status: "connecting", data: undefined, lastEventId: undefined, missed: false });
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const controller = new AbortController();
    let lastEventId: string | undefined;
    let retryMs = FIRST_RETRY_MS;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = (change: Partial<EventStreamState<Data>>) => setState((previous) => ({ ...previous, ...change }));
    const again = (ms: number) => {
      update({ status: "reconnecting" });
      timer = setTimeout(connect, ms);
    };
    const dispatch = (event: ServerSentEvent) => {
      if (event.type === "missed") {
        const missed = parse(event.data) as MissedEvents;
        update({ missed: true });
        latest.current.onMissed?.(missed);
        return;
      }
      if (event.type !== "message") return;
      lastEventId = event.lastEventId || lastEventId;
      const data = parse(event.data) as Data;
      update({ data, lastEventId });
      latest.current.onMessage?.(data, { id: event.lastEventId });
    };
    async function connect() {
      try {
        const response = await fetch(url, {
          headers: { Accept: "text/event-stream", ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
          cache: "no-store",
          signal: controller.signal,
        });
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          if (response.status >= 400 && response.status < 500 && response.status !== 429 && response.status !== 408) {
            update({ status: "closed" });
            return;
          }
          const retryAfter = Number(response.headers.get("Retry-After"));
          again(retryAfter > 0 ? spread(retryAfter * 1000) : spread(Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures++)));
          return;
        }
        if (!response.headers.get("Content-Type")?.startsWith("text/event-stream")) {
          // Not a stream (a page, JSON): coming back would get the same.
          await response.body.cancel();
          update({ status: "closed" });
          return;
        }
        failures = 0;
        update({ status: "open" });
        const parser = sseParser(dispatch, (ms) => {
          retryMs = ms;
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.push(value);
        }
        // Ended by the server (a deploy, a restart): back after its hint, to whichever replica answers.
        again(retryMs);
      } catch {
        if (controller.signal.aborted) return;
        again(spread(Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures++)));
      }
    }
    void connect();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [url]);

  return state;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
