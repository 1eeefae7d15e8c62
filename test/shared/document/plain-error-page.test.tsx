import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type FeedbackPage, FeedbackPageContext } from "#src/shared/document/feedback-page";
import { PlainErrorPage } from "#src/shared/document/PlainErrorPage";
import { RouteTable } from "#src/shared/routing/route-table";

const EVENT_ID = "0123456789abcdef0123456789abcdef";
const render = (feedbackPage: FeedbackPage | null) =>
  renderToStaticMarkup(
    <FeedbackPageContext value={feedbackPage}>
      <PlainErrorPage error={{ eventId: EVENT_ID }} />
    </FeedbackPageContext>,
  );

describe("the platform's last-resort error page", () => {
  it("offers the app's feedback page with the event id, when the app names one", () => {
    expect(render({ path: "/feedback", available: true })).toContain(`<a href="/feedback?eventId=${EVENT_ID}">Tell us what happened</a>`);
    expect(render({ path: "/help?topic=error", available: false })).toContain(`href="/help?topic=error&amp;eventId=${EVENT_ID}"`);
  });

  it("offers none when the app names no feedback page", () => {
    expect(render(null)).not.toContain("Tell us what happened");
  });
});

describe("defineApp's feedbackPage", () => {
  const table = (feedbackPage?: string) => new RouteTable({ root: "Root.tsx", notFound: "NotFound.tsx", feedbackPage, routes: [] });

  it("is a path of the site, or none", () => {
    expect(table("/feedback").feedbackPage).toBe("/feedback");
    expect(table().feedbackPage).toBeNull();
  });

  it.each(["feedback", "//evil.example/feedback", "https://evil.example/"])("refuses %s, naming it", (path) => {
    expect(() => table(path)).toThrow(`feedbackPage ${JSON.stringify(path)}: give the path of the app's feedback page`);
  });
});
