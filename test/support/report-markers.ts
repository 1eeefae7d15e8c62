import type { Page } from "playwright-core";
import { eventsWithMessage, exceptionOf } from "./envelopes";
import type { FakeIngest } from "./fake-ingest";

// "Nothing more was reported" is shown by a later report arriving: a marker error raised after
// the thing under test, on the same side (server or browser), is sent after anything that thing
// sent, so once the marker has arrived at the fake ingest, so has everything before it.

const BROWSER_MARKER_PREFIX = "report marker ";
const SERVER_MARKER = "diagnostic action error";

/** Whether a page's error text (watchPage's problems) is a browser marker's. */
export const isMarkerText = (text: string): boolean => text.includes(BROWSER_MARKER_PREFIX);

/** Whether an event is one of these markers, to leave out of what else was received. */
export function isMarkerEvent(item: { payload: Record<string, unknown> }): boolean {
  const message = String(exceptionOf(item.payload).value);
  return message === SERVER_MARKER || message.startsWith(BROWSER_MARKER_PREFIX);
}

/** The server reports a marker (the diagnostics form's failing action); resolves once it arrived. Needs the diagnostic routes. */
export async function serverMarkerArrived(serverUrl: string, ingest: FakeIngest): Promise<void> {
  const before = eventsWithMessage(ingest, SERVER_MARKER).length;
  const response = await fetch(`${serverUrl}/diagnostics/form`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "note=marker&intent=fail",
    redirect: "manual",
  });
  await response.text();
  if (response.status !== 500) throw new Error(`the marker action answered ${response.status}, not 500`);
  await ingest.waitFor(() => eventsWithMessage(ingest, SERVER_MARKER).length > before, 10_000);
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
