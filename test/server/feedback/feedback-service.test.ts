import { describe, expect, it } from "vitest";
import type { Feedback } from "#src/server/feedback/feedback-form";
import { parseFeedback } from "#src/server/feedback/feedback-form";
import { createFeedbackService } from "#src/server/feedback/feedback-service";

const EVENT_ID = "0123456789abcdef0123456789abcdef";

describe("the feedback form's rules", () => {
  it("trims, drops blank optional fields and lower-cases the event id", () => {
    expect(parseFeedback({ message: "  It broke  ", name: " ", email: " ada@example.org ", eventId: EVENT_ID.toUpperCase(), extra: "x" })).toEqual({
      ok: true,
      feedback: { message: "It broke", email: "ada@example.org", eventId: EVENT_ID },
    });
  });

  it("names each invalid field and keeps what was typed", () => {
    const typed = { message: "   ", name: "n".repeat(101), email: "not an address", eventId: "abc" };
    const parsed = parseFeedback(typed);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual(["email", "eventId", "message", "name"]);
    expect(parsed.values).toEqual(typed);
  });

  it("holds the limits exactly", () => {
    const at = (message: string, extra: Record<string, string> = {}) => parseFeedback({ message, ...extra }).ok;
    expect(at("m".repeat(4000))).toBe(true);
    expect(at(` ${"m".repeat(4000)} `)).toBe(true);
    expect(at("m".repeat(4001))).toBe(false);
    expect(at("hi", { name: "n".repeat(100) })).toBe(true);
    expect(at("hi", { email: `${"e".repeat(188)}@example.org` })).toBe(true);
    expect(at("hi", { email: `${"e".repeat(189)}@example.org` })).toBe(false);
  });

  it("refuses what a form never sends: repeated fields, non-strings, no object at all", () => {
    expect(parseFeedback({ message: ["a", "b"] }).ok).toBe(false);
    expect(parseFeedback({ message: 42 }).ok).toBe(false);
    expect(parseFeedback(["message"]).ok).toBe(false);
    expect(parseFeedback(null).ok).toBe(false);
  });
});

describe("the feedback service", () => {
  it("is unavailable without a sender", async () => {
    const service = createFeedbackService(undefined);
    expect(service.available).toBe(false);
    expect(await service.submit({ message: "hi" }, "203.0.113.1")).toEqual({ status: "unavailable", values: { message: "hi", name: "", email: "", eventId: "" } });
  });

  it("sends valid feedback and returns the event id", async () => {
    const sent: Feedback[] = [];
    const service = createFeedbackService((feedback) => {
      sent.push(feedback);
      return "f".repeat(32);
    });
    expect(await service.submit({ message: "hi", eventId: EVENT_ID }, "203.0.113.1")).toEqual({ status: "sent", eventId: "f".repeat(32) });
    expect(sent).toEqual([{ message: "hi", eventId: EVENT_ID }]);
  });

  it("allows five submissions per client IP per minute; invalid ones do not count", async () => {
    const service = createFeedbackService(() => "f".repeat(32));
    for (let i = 0; i < 3; i++) expect((await service.submit({ message: "" }, "203.0.113.1")).status).toBe("invalid");
    for (let i = 0; i < 5; i++) expect((await service.submit({ message: `#${i}` }, "203.0.113.1")).status).toBe("sent");
    const limited = await service.submit({ message: "one more" }, "203.0.113.1");
    expect(limited).toMatchObject({ status: "rate_limited" });
    expect(limited.status === "rate_limited" && limited.retryAfterSeconds).toBeGreaterThan(0);
    expect((await service.submit({ message: "another visitor" }, "203.0.113.2")).status).toBe("sent");
  });
});
