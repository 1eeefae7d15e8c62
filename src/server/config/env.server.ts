// zod/mini, not zod: its functions are separate exports that esbuild leaves out when unused,
// where zod's classic schemas carry every method and bring the whole library (≈ 700 KB to
// compile at start, for this file and the feedback form). English messages, as zod's have.
import { array, check, coerce, config, _default, enum as oneOf, int, maximum, minimum, minLength, object, optional, pipe, positive, refine, regex, string, transform, type infer as Infer, type ZodMiniType } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { type AppSettings, type SettingsSchema, type SettingsValues, settingsValues } from "../routing/settings";
import { parseDsn } from "../../shared/sentry/dsn";
import { DEFAULT_IPV6_PREFIX } from "../limits/client-key";
import { TUNNEL_DEFAULTS } from "../tunnel/contract/defaults";
import { parseProjectQuota } from "../tunnel/check/project-quota";
import { TUNNEL_FILTERS } from "../tunnel/filters";

config(en());

/**
 * The whole environment, read and validated once at start. An invalid value stops the
 * process with a message naming the variable, rather than failing on first use.
 */
const flag = pipe(
  _default(oneOf(["true", "false", "1", "0"], { message: "expected true or false" }), "false"),
  transform((value: "true" | "false" | "1" | "0") => value === "true" || value === "1"),
);

const port = coerce.number().check(int(), minimum(0), maximum(65535));
const positiveInt = coerce.number().check(int(), positive());
const nonNegativeInt = coerce.number().check(int(), minimum(0));

const dsn = string().check(
  check((ctx) => {
    try {
      parseDsn(ctx.value);
    } catch (error) {
      ctx.issues.push({ code: "custom", message: (error as Error).message, input: ctx.value });
    }
  }),
);

/** A comma-separated list, each item checked by `item`; empty when unset. */
const commaList = <Item extends ZodMiniType<unknown, string>>(item: Item) =>
  pipe(
    pipe(
      _default(string(), ""),
      transform((value: string) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      ),
    ),
    array(item),
  );

/** An origin as browsers send it: scheme, host and port, no path, query or credentials. */
const origin = pipe(
  string(),
  transform((value: string, ctx) => {
    const url = URL.parse(value);
    const plain = url && (url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" &&
      !url.search && !url.hash && !url.username && !url.password && !value.endsWith("?") && !value.endsWith("#");
    if (url && plain) return url.origin;
    ctx.issues.push({ code: "custom", message: `expected an origin such as https://example.com, got ${JSON.stringify(value)}`, input: value });
    return "";
  }),
);

const text = () => string().check(minLength(1));

/** A Redis URL; the message never repeats the value, which may carry a password. */
const redisUrl = string().check(
  check((ctx) => {
    const url = URL.parse(ctx.value);
    const problem = !url
      ? "is not a URL"
      : url.protocol !== "redis:" && url.protocol !== "rediss:"
        ? `has the scheme ${url.protocol} (expected redis: or rediss: for TLS)`
        : !url.hostname
          ? "names no host"
          : !/^(\/\d{0,5})?$/.test(url.pathname) || url.search || url.hash
            ? "may only name a database number as its path (redis://host:6379/0)"
            : null;
    if (problem) ctx.issues.push({ code: "custom", message: `${problem}: expected redis://[user:password@]host[:port][/db]`, input: "" });
  }),
);

/** JSON.stringify overflows the stack at about 4,000 levels with an empty stack (Node 20 and 24); a request's is far from empty. */
const MAX_BODY_DEPTH = 1_000;

export const envSchema = object({
  NODE_ENV: _default(oneOf(["production", "development", "test"]), "production"),
  HOST: _default(text(), "0.0.0.0"),
  PORT: _default(port, 3000),
  METRICS_PORT: _default(port, 9464),
  METRICS_HOST: _default(text(), "0.0.0.0"),
  TRUST_PROXY: flag,
  /** Proxies in front that append to X-Forwarded-For; the client IP is read that many from the right. */
  PROXY_HOPS: _default(positiveInt, 1),
  /** Leading bits of an IPv6 client's address that per-client rate limits count it by (its network, not each address). */
  RATE_LIMIT_IPV6_PREFIX: _default(coerce.number().check(int(), minimum(1), maximum(128)), DEFAULT_IPV6_PREFIX),
  ENABLE_DIAGNOSTIC_ROUTES: flag,
  LOG_LEVEL: _default(oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"]), "info"),
  SHUTDOWN_TIMEOUT_MS: _default(positiveInt, 10_000),
  RENDER_TIMEOUT_MS: _default(positiveInt, 10_000),
  /** Largest request body a page route accepts (form, JSON or multipart fields); larger is 413. */
  BODY_MAX_BYTES: _default(positiveInt, 65_536),
  /** Most fields in a page's form (urlencoded or multipart); more is 413 naming the limit. */
  BODY_MAX_FIELDS: _default(positiveInt, 1_000),
  /**
   * Deepest nesting of arrays and objects in a JSON body; deeper is 400 naming the limit. Capped
   * well below the few thousand levels at which JSON.stringify (and any other recursive code)
   * runs out of stack, so nothing a client sends can overflow it.
   */
  BODY_MAX_DEPTH: _default(coerce.number().check(int(), positive(), maximum(MAX_BODY_DEPTH)), 64),
  /** More origins trusted to send state-changing requests, besides the site's own. */
  ALLOWED_ORIGINS: commaList(origin),
  /** Secrets that sign cookies and the session, comma separated: the first signs, all verify. */
  SESSION_SECRET: commaList(string().check(minLength(32, "each secret must be at least 32 characters"))),
  /** Where sessions live: `cookie` (signed, in the visitor's browser) or `redis` (behind a signed id; needs REDIS_URL). */
  SESSION_STORE: _default(oneOf(["cookie", "redis"]), "cookie"),
  SENTRY_DSN: optional(dsn),
  PUBLIC_SENTRY_DSN: optional(dsn),
  SENTRY_ENVIRONMENT: optional(text()),
  SENTRY_RELEASE: optional(text()),
  SENTRY_TRACES_SAMPLE_RATE: _default(coerce.number().check(minimum(0), maximum(1)), 0),
  /** Shared state for several replicas (rate limits, sessions); unset, each process keeps its own. */
  REDIS_URL: optional(redisUrl),
  /** The in-process page cache's budget (pages that declare `cache`); with REDIS_URL it holds what Redis could not. */
  PAGE_CACHE_MAX_MB: _default(coerce.number().check(positive(), maximum(64 * 1024)), 64),
  /** With REDIS_URL: the bytes this build's kept pages may hold in Redis, least recently used evicted first (fractions allowed). */
  PAGE_CACHE_REDIS_MAX_MB: _default(coerce.number().check(positive(), maximum(64 * 1024)), 64),
  /** How long one Redis command may take before the request goes on without it. */
  REDIS_TIMEOUT_MS: _default(positiveInt, 100),
  /** With REDIS_URL: how long a build's published assets stay in Redis after its last replica stopped renewing them (fractions allowed). */
  ASSET_RETENTION_HOURS: _default(coerce.number().check(positive(), maximum(24 * 366)), 24),
  /** With REDIS_URL: a build whose hashed scripts and stylesheets total more than this is not published (fractions allowed). */
  ASSET_PUBLISH_MAX_MB: _default(coerce.number().check(positive(), maximum(1024)), 50),
  /** Server-sent events: the last events of each channel kept for clients that reconnect (in Redis with REDIS_URL). */
  EVENT_STREAM_RETAIN: _default(coerce.number().check(int(), minimum(1), maximum(100_000)), 100),
  /** Seconds between the comment lines that keep an idle event stream open through proxies (fractions allowed). */
  EVENT_STREAM_HEARTBEAT_S: _default(coerce.number().check(positive(), maximum(3_600)), 15),
  /** Open event streams one client address may hold on a replica; more is 429. */
  EVENT_STREAM_MAX_PER_CLIENT: _default(positiveInt, 8),
  /** Open event streams one process may hold; more is 503 with Retry-After. */
  EVENT_STREAM_MAX: _default(positiveInt, 10_000),
  /** Bytes queued for an event stream's client that stopped reading, past which its connection is closed. */
  EVENT_STREAM_BUFFER_MAX_BYTES: _default(coerce.number().check(int(), minimum(1_024)), 1_048_576),
  SENTRY_TUNNEL_PATH: pipe(
    _default(string().check(regex(/^\/[A-Za-z0-9/_-]*$/, "expected a path such as /monitoring")), TUNNEL_DEFAULTS.path),
    transform((value: string) => (value.length > 1 ? value.replace(/\/+$/, "") : value)),
  ),
  SENTRY_TUNNEL_ALLOWED_DSNS: commaList(dsn),
  SENTRY_TUNNEL_MAX_BYTES: _default(positiveInt, TUNNEL_DEFAULTS.maxBytes),
  SENTRY_TUNNEL_RATE_LIMIT: _default(nonNegativeInt, TUNNEL_DEFAULTS.rateLimitPerMinute),
  SENTRY_TUNNEL_CONNECT_TIMEOUT_MS: _default(positiveInt, TUNNEL_DEFAULTS.connectTimeoutMs),
  SENTRY_TUNNEL_HEADERS_TIMEOUT_MS: _default(positiveInt, TUNNEL_DEFAULTS.headersTimeoutMs),
  /** A directory, or `off`. */
  SENTRY_TUNNEL_SPOOL_DIR: _default(text(), TUNNEL_DEFAULTS.spoolDir),
  SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES: _default(positiveInt, TUNNEL_DEFAULTS.spoolMaxEnvelopeBytes),
  SENTRY_TUNNEL_SPOOL_MAX_BYTES: _default(positiveInt, TUNNEL_DEFAULTS.spoolMaxBytes),
  SENTRY_TUNNEL_SPOOL_MAX_AGE_SECONDS: _default(positiveInt, TUNNEL_DEFAULTS.spoolMaxAgeSeconds),
  SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES: _default(positiveInt, TUNNEL_DEFAULTS.spoolMaxMemoryBytes),
  /** What of the visitor's address goes upstream as X-Sentry-Forwarded-For: full, truncated (IPv4 /24, IPv6 /48) or none. */
  SENTRY_TUNNEL_FORWARD_IP: _default(oneOf(["full", "truncated", "none"]), "full"),
  /** `defaults`: Relay's default PII rules applied to events and transactions before they leave; `off` streams bytes untouched. */
  SENTRY_TUNNEL_SCRUB: _default(oneOf(["off", "defaults"]), "off"),
  /** Seconds between one DSN's client reports of what the tunnel dropped (fractions allowed); 0: none sent. */
  SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S: _default(coerce.number().check(minimum(0), maximum(86_400)), TUNNEL_DEFAULTS.clientReportIntervalSeconds),
  /** Relay's inbound filters, comma separated: browser-extensions, localhost, web-crawlers. */
  SENTRY_TUNNEL_FILTERS: commaList(oneOf(TUNNEL_FILTERS)),
  /** Envelopes forwarded per DSN project: `N/minute` or `N/hour`; unset or `off`: no quota. */
  SENTRY_TUNNEL_PROJECT_QUOTA: pipe(
    _default(string(), ""),
    transform((value: string, ctx) => {
      try {
        return parseProjectQuota(value);
      } catch (error) {
        ctx.issues.push({ code: "custom", message: (error as Error).message, input: value });
        return undefined;
      }
    }),
  ),
}).check(
  refine((env) => env.SESSION_STORE !== "redis" || env.REDIS_URL !== undefined, {
    path: ["SESSION_STORE"],
    message: "SESSION_STORE=redis needs REDIS_URL (redis:// or rediss://)",
  }),
  refine((env) => env.SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES <= env.SENTRY_TUNNEL_SPOOL_MAX_BYTES, {
    path: ["SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES"],
    message: "must not exceed SENTRY_TUNNEL_SPOOL_MAX_BYTES",
  }),
  refine((env) => env.SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES <= env.SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES, {
    path: ["SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES"],
    message: "must not exceed SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES",
  }),
);

export type Env = Infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Unset and empty are the same: orchestrators often template variables to "". */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
}

/** Validates the environment against a schema (the platform's, or the app's settings); throws EnvError naming each bad variable. */
export function parseEnvironment<Value>(schema: SettingsSchema<Value>, source: NodeJS.ProcessEnv, title: string): Value {
  const result = schema.safeParse(withoutEmpty(source));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.map(String).join(".")}: ${issue.message}`);
  throw new EnvError(`${title}:\n${problems.join("\n")}`);
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnvironment(envSchema as SettingsSchema<Env>, source, "Invalid environment configuration");
}

/** The app's own settings (src/app/app.server.ts), validated as the platform's environment is; throws EnvError naming each bad variable. */
export function readAppSettings(settings: AppSettings<unknown> | undefined, source: NodeJS.ProcessEnv = process.env): SettingsValues {
  return settingsValues(settings, settings && parseEnvironment(settings.schema, source, "Invalid app settings"));
}

/** For process entry points: an invalid environment ends start-up with exit 1 and the message. */
export function loadEnvOrExit<Loaded = Env>(load: () => Loaded = loadEnv as () => Loaded): Loaded {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** The browser DSN: PUBLIC_SENTRY_DSN, falling back to SENTRY_DSN. */
export function browserDsn(env: Env): string | undefined {
  return env.PUBLIC_SENTRY_DSN ?? env.SENTRY_DSN;
}
