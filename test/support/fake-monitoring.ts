import type { UserFeedback } from "#src/shared/routing/request";
import type { RequestMonitoring } from "#src/server/monitoring/request-monitoring";

/** Error reporting that records what it is given; each error gets a fresh fake event id. */
export function recordingMonitoring() {
  const errors: unknown[] = [];
  const feedback: UserFeedback[] = [];
  let sequence = 0;
  const nextId = () => (++sequence).toString(16).padStart(32, "0");
  const monitoring: RequestMonitoring = {
    forRequest: () => ({
      nameRoute: () => {},
      captureError: (error) => {
        errors.push(error);
        return nextId();
      },
      traceMeta: () => ({}),
    }),
    captureFeedback: (sent) => {
      feedback.push(sent);
      return nextId();
    },
  };
  return { monitoring, errors, feedback };
}
