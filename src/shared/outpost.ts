/**
 * The platform's face for product code on both sides (`import { … } from "#outpost"`): the route
 * table's helpers, the components and hooks pages use, and the types. Everything here runs in the
 * browser too; what only a `*.server.ts` module may call is in `#outpost/server` (src/server/outpost.ts).
 */
export { defineApp, index, route } from "./routing/config";
export { href, type HrefOptions, type HrefParams, type HrefPattern, type HrefSearch } from "./routing/href";
export { Link } from "./navigation/Link";
export { Outlet } from "./navigation/Outlet";
export { NavigationProgress } from "./navigation/NavigationProgress";
export { type BlockerArgs, type BlockerFunction, type NavigateOptions, useNavigation } from "./navigation/router-context";
export { useFetchers, useRevalidator } from "./navigation/data-hooks";
export type { BlockerState, FetcherStatus, Navigation, RouterLocation } from "./navigation/router-state";
export { type SearchParamsInit, type SetSearchParams, useLocation, useParams, useSearchParams } from "./navigation/location-hooks";
export { type NavigateFunction, useNavigate } from "./navigation/use-navigate";
export { type Blocker, useBeforeUnload, useBlocker, useViewTransitionState } from "./navigation/use-blocker";
export { Form, type FormState } from "./forms/Form";
export {
  type Fetcher,
  type FetcherFormProps,
  type FetcherOptions,
  type FetcherState,
  type SubmitOptions,
  useFetcher,
} from "./navigation/use-fetcher";
export { Await, type AwaitProps } from "./deferred/Await";
export { type FieldErrors, useActionData } from "./forms/page-forms";
export { useRouteLoaderData } from "./routing/route-loader-data";
export { type FeedbackPage, useFeedbackPage } from "./document/feedback-page";
export {
  type EventStreamState,
  type EventStreamStatus,
  type MissedEvents,
  useEventStream,
  type UseEventStreamOptions,
} from "./events/use-event-stream";
export type {
  RouteServices,
  CookieOptions,
  RequestContext,
  RequestCookies,
  RequestValueKey,
  Session,
  UploadedFile,
  UserFeedback,
} from "./routing/request";
export type { RedirectStatus, ResponseHeaders } from "./routing/signals";
export type {
  ActionContext,
  ErrorBoundaryProps,
  HeadTags,
  LinkTag,
  LoaderContext,
  LoaderData,
  MetaTag,
  PageCachePolicy,
  PageProps,
  Prerender,
  RouteError,
  RouteHeaders,
  RouteMiddleware,
  ShouldRevalidateArgs,
  UploadLimits,
} from "./routing/module";
export type { PagePattern, ParamsOf, Register, RoutePattern, RouteSearch } from "./routing/register";
export type { RouteParams } from "./routing/route-patterns";
export type { DataOf } from "./routing/inferred-data";
export type { SearchIssue, SearchOf, SearchSchema } from "./routing/search-schema";
