// Relay's inbound filter `browser-extensions`: frames from an extension's scheme, and the messages extensions are known to cause.
const EXTENSION_URL = /^(?:chrome|chrome-extension|moz-extension|safari-extension|safari-web-extension|ms-browser-extension|webkit-masked-url):\/\//i;

// Relay's list (relay-filter/src/browser_extensions.rs), which Sentry applies to error messages and exception values.
const EXTENSION_MESSAGES = new RegExp(
  [
    "top\\.GLOBALS",
    "originalCreateNotification",
    "canvas\\.contentDocument",
    "MyApp_RemoveAllHighlights",
    "http://tt\\.epicplay\\.com",
    "Can't find variable: ZiteReader",
    "jigsaw is not defined",
    "ComboSearch is not defined",
    "http://loading\\.retry\\.widdit\\.com/",
    "atomicFindClose",
    "fb_xd_fragment",
    "bmi_SafeAddOnload",
    "EBCallBackMessageReceived",
    "conduitPage",
    "Script error\\.?$",
    "_avast_submit",
    "Can't find variable: gmo",
    "^undefined is not an object \\(evaluating 'a\\.[A-Z]'\\)$",
    "can't redefine non-configurable property \"solana\"",
    "vv\\(\\)\\.getRestrictions is not a function",
    "Can't find variable: _AutofillCallbackHandler",
    "Object Not Found Matching Id:\\d+, MethodName:simulateEvent",
    "Java exception was raised during method invocation",
  ].join("|"),
  "i",
);

type Frame = { abs_path?: unknown; filename?: unknown };
type Exception = { type?: unknown; value?: unknown; stacktrace?: { frames?: unknown } };

function exceptions(event: Record<string, unknown>): Exception[] {
  const values = (event.exception as { values?: unknown } | undefined)?.values;
  return Array.isArray(values) ? values.filter((value): value is Exception => typeof value === "object" && value !== null) : [];
}

function framesOf(exception: Exception): Frame[] {
  const frames = exception.stacktrace?.frames;
  return Array.isArray(frames) ? frames.filter((frame): frame is Frame => typeof frame === "object" && frame !== null) : [];
}

const messageOf = (exception: Exception) =>
  [exception.type, exception.value].filter((part) => typeof part === "string").join(": ");

/** The error came from a browser extension: its top frame is an extension's script, or its message is one extensions cause. */
export function fromBrowserExtension(event: Record<string, unknown>): boolean {
  for (const exception of exceptions(event)) {
    if (EXTENSION_MESSAGES.test(messageOf(exception)) || (typeof exception.value === "string" && EXTENSION_MESSAGES.test(exception.value))) return true;
    const frames = framesOf(exception);
    // Sentry's frames run oldest first: the last is where it was thrown.
    const top = frames[frames.length - 1];
    const url = top?.abs_path ?? top?.filename;
    if (typeof url === "string" && EXTENSION_URL.test(url)) return true;
  }
  return false;
}
