import type { Page } from "playwright-core";
import { eventsWithMessage, exceptionOf } from "./envelopes";
import type { FakeIngest } from "./fake-ingest";

// "Nothing more was reported" is shown by a later report arriving: a marker error raised after
// the thing under test, on the same side (server or browser), is sent after anything that thing
// sent, so once the marker has arrived at the fake ingest, so has everything before it.

const BROWSER_MARKER_PREFIX = "report marker ";

/** A request that makes the server report an error with a known message. */
export interface ServerMarker {
  message: string;
  request(serverUrl: string): Promise<Response>;
}

/** The diagnostics form's failing action (needs the diagnostic routes). */
export const DIAGNOSTICS_MARKER: ServerMarker = {
  message: "diagnostic action error",
  request: (serverUrl) =>
    fetch(`${serverUrl}/diagnostics/form`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "note=marker&intent=fail",
      redirect: "manual",
    }),
};

/** The fixture app's failing item loader. */
export const FIXTURE_MARKER: ServerMarker = {
  message: "fixture item failed",
  request: (serverUrl) => fetch(`${serverUrl}/items/500`),
};

/** Whether a page's error text (watchPage's problems) is a browser marker's. */
export const isMarkerText = (text: string): boolean => text.includes(BROWSER_MARKER_PREFIX);

/** Whether an event is one of these markers, to leave out of what else was received. */
export function isMarkerEvent(item: { payload: Record<string, unknown> }): boolean {
  const message = String(exceptionOf(item.payload).value);
  return message === DIAGNOSTICS_MARKER.message || message === FIXTURE_MARKER.message || message.startsWith(BROWSER_MARKER_PREFIX);
}

/** The server reports a marker; resolves once it arrived. */
export async function serverMarkerArrived(serverUrl: string, ingest: FakeIngest, marker = DIAGNOSTICS_MARKER): Promise<void> {
  const before = eventsWithMessage(ingest, marker.message).length;
  const response = await marker.request(serverUrl);
  await response.text();
  if (response.status !== 500) throw new Error(`the marker request answered ${response.status}, not 500`);
  await ingest.waitFor(() => eventsWithMessage(ingest, marker.message).length > before, 10_000);
}

/** The page throws an uncaught marker error; resolves once the browser SDK's event for it arrived. */
export async function browserMarkerArrived(page: Page, ingest: FakeIngest): Promise<void> {
  const message = `${BROWSER_MARKER_PREFIX}${crypto.randomUUID()}`;
  await page.evaluate((text) => {
    setTimeout(() => {
      throw new Error(text);
    });
  }, message);
  await ingest.waitFor(() => eventsWithMessage(ingest, message).length > 0, 10_000);
}
