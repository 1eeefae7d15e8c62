import { createContext, useContext } from "react";

/** The app's feedback page (AppConfig.feedbackPage), as error pages offer it. */
export interface FeedbackPage {
  /** Its path, e.g. `/feedback`. */
  path: string;
  /** Whether feedback can be sent now (error reporting is on: SENTRY_DSN); its form says so when not. */
  available: boolean;
}

export const FeedbackPageContext = createContext<FeedbackPage | null>(null);

/** The app's feedback page, or null when the app names none (see `feedbackPage` in defineApp). */
export function useFeedbackPage(): FeedbackPage | null {
  return useContext(FeedbackPageContext);
}

/** The feedback page's address for one reported event, so Sentry links what the visitor writes to it. */
export function feedbackHref(page: FeedbackPage, eventId: string | undefined): string {
  return eventId ? `${page.path}${page.path.includes("?") ? "&" : "?"}eventId=${encodeURIComponent(eventId)}` : page.path;
}
