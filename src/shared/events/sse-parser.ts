/** One event of a `text/event-stream`, as the EventSource specification dispatches it. */
export interface ServerSentEvent {
  /** `message` unless the server named it (`event:`). */
  type: string;
  data: string;
  /** The last event id so far (it carries over events that name none). */
  lastEventId: string;
}

/**
 * Parses a `text/event-stream` fed as decoded text in chunks of any size: fields `event`, `data`,
 * `id` and `retry`, comments ignored, an event dispatched at each blank line (the specification's
 * parsing, without EventSource, so the hook can send Last-Event-ID on a reconnect of its own).
 */
export function sseParser(onEvent: (event: ServerSentEvent) => void, onRetry: (ms: number) => void) {
  let buffer = "";
  let type = "";
  let data: string[] = [];
  let lastEventId = "";
  let afterCarriageReturn = false;
  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0) onEvent({ type: type || "message", data: data.join("\n"), lastEventId });
      type = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") type = value;
    else if (field === "id" && !value.includes("\0")) lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) onRetry(Number(value));
  };
  return {
    push(chunk: string) {
      // A \r that ended the last chunk may be the first half of \r\n.
      buffer += afterCarriageReturn && chunk.startsWith("\n") ? chunk.slice(1) : chunk;
      afterCarriageReturn = chunk.endsWith("\r");
      const lines = buffer.split(/\r\n|\r|\n/);
      // The last piece has no line end yet.
      buffer = lines.pop() ?? "";
      for (const text of lines) line(text);
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
