import { type FieldErrors, Form, type HeadTags, useActionData, useEventStream } from "#outpost";
import { useState } from "react";
import type { EVENT_FIELDS } from "./EventsPage.server";

export const head = (): HeadTags => ({ title: "Live events · Diagnostics" });

interface Received {
  id: string;
  message: string;
}

/**
 * Live updates across replicas: the form publishes to channel `diagnostics` (on whichever replica
 * takes the POST), and each event received on the stream adds a line to the log.
 */
export default function EventsPage() {
  const answer = useActionData<{ errors?: FieldErrors<(typeof EVENT_FIELDS)[number]> }>();
  const [received, setReceived] = useState<Received[]>([]);
  const stream = useEventStream<{ message: string }>("/diagnostics/events/stream", {
    onMessage: (data, { id }) => setReceived((previous) => [...previous, { id, message: data.message }]),
  });
  return (
    <section>
      <h1>Live events</h1>
      <Form id="events-form" noValidate>
        <label htmlFor="events-message">Message</label>
        <input id="events-message" name="message" aria-invalid={answer?.errors?.message ? true : undefined} />
        {answer?.errors?.message ? <p data-error-for="message">{answer.errors.message}</p> : null}
        <button type="submit">Publish</button>
      </Form>
      <p id="events-status">{stream.missed ? `${stream.status} (some events were missed)` : stream.status}</p>
      <ul id="events-log" data-status={stream.status}>
        {received.map(({ id, message }) => (
          <li key={id} data-id={id}>
            {message}
          </li>
        ))}
      </ul>
    </section>
  );
}
