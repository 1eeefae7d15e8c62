import { describe, expect, it } from "vitest";
import { parseFeedback } from "#src/app/feedback/feedback-form.server";

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
