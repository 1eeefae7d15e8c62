import type { FeedbackService } from "./feedback-service";

// Actions reach the feedback service through their context (see ActionServices).
declare module "../../shared/routing/request" {
  interface ActionServices {
    feedback: FeedbackService;
  }
}
