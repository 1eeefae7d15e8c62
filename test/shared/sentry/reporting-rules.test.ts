import { describe, expect, it } from "vitest";
import { NotFoundSignal, RedirectSignal } from "#src/shared/routing/signals";
import {
  dropRedirectSignals,
  isNotFoundTransaction,
  isRedirectSignalEvent,
  transactionName,
} from "#src/shared/sentry/reporting-rules";
import { NOT_FOUND_ROUTE } from "#src/shared/routing/route-table";

const errorEvent = (type: string) => ({ exception: { values: [{ type, value: "x" }] } });

describe("the redirect-signal rule", () => {
  it("drops an event whose original exception is the redirect signal", () => {
    const event = errorEvent("Error");
    expect(dropRedirectSignals(event, { originalException: new RedirectSignal("/") })).toBeNull();
  });

  it("recognises the signal by its marker even from another copy of the class", () => {
    const foreign = { [Symbol.for("outpost.signal")]: "redirect", message: "anything" };
    expect(isRedirectSignalEvent(errorEvent("Object"), { originalException: foreign })).toBe(true);
  });

  it("recognises the signal by the exception type when the original is absent", () => {
    expect(isRedirectSignalEvent(errorEvent("RedirectSignal"))).toBe(true);
  });

  it("does not go by message text", () => {
    const lookalike = new Error("redirect to /");
    expect(dropRedirectSignals(errorEvent("Error"), { originalException: lookalike })).not.toBeNull();
  });

  it("keeps real errors and the not-found signal's own type", () => {
    const event = errorEvent("Error");
    expect(dropRedirectSignals(event, { originalException: new Error("boom") })).toBe(event);
    expect(dropRedirectSignals(errorEvent("NotFoundSignal"), { originalException: new NotFoundSignal() })).not.toBeNull();
    expect(dropRedirectSignals({}, {})).toEqual({});
  });
});

describe("user feedback", () => {
  it("passes both rules untouched", () => {
    // The shape @sentry/core's captureFeedback builds; it is neither an error nor a transaction.
    const feedback: { type: string; exception?: undefined; [key: string]: unknown } = {
      type: "feedback",
      level: "info",
      contexts: { feedback: { message: "It broke", associated_event_id: "0123456789abcdef0123456789abcdef" } },
    };
    expect(dropRedirectSignals(feedback, {})).toBe(feedback);
    expect(isNotFoundTransaction(feedback.type)).toBe(false);
  });
});

describe("the not-found transaction rule", () => {
  it("matches server and browser names of the not-found page", () => {
    expect(isNotFoundTransaction(transactionName("GET", NOT_FOUND_ROUTE))).toBe(true);
    expect(isNotFoundTransaction(transactionName("HEAD", NOT_FOUND_ROUTE))).toBe(true);
    expect(isNotFoundTransaction(transactionName(null, NOT_FOUND_ROUTE))).toBe(true);
  });

  it("leaves every other transaction alone", () => {
    for (const name of ["GET /", "GET /items/:id", "/", "GET /not_found", "GET not_found_x", "GET", undefined]) {
      expect(isNotFoundTransaction(name), String(name)).toBe(false);
    }
  });
});
