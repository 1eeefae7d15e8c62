// Named imports, not the `z` namespace: esbuild can then leave the rest of zod (its many locales
// among it) out of the server build, a quarter of the size to compile at start.
import { array, coerce, enum as oneOf, object, string, type ZodType, type infer as Infer } from "zod";
import { parseDsn } from "../../shared/sentry/dsn";
import { TUNNEL_DEFAULTS } from "../tunnel/defaults";

/**
 * The whole environment, read and validated once at start. An invalid value stops the
 * process with a message naming the variable, rather than failing on first use.
 */
const flag = oneOf(["true", "false", "1", "0"], { message: "expected true or false" })
  .default("false")
  .transform((value) => value === "true" || value === "1");

const port = coerce.number().int().min(0).max(65535);
const positiveInt = coerce.number().int().positive();
const nonNegativeInt = coerce.number().int().min(0);

const dsn = string().superRefine((value, ctx) => {
  try {
    parseDsn(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: (error as Error).message });
  }
});

/** A comma-separated list, each item checked by `item`; empty when unset. */
const commaList = <Item extends ZodType<unknown, string>>(item: Item) =>
  string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(array(item));

/** An origin as browsers send it: scheme, host and port, no path, query or credentials. */
const origin = string().transform((value, ctx) => {
  const url = URL.parse(value);
  const plain = url && (url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" &&
    !url.search && !url.hash && !url.username && !url.password && !value.endsWith("?") && !value.endsWith("#");
  if (url && plain) return url.origin;
  ctx.addIssue({ code: "custom", message: `expected an origin such as https://example.com, got ${JSON.stringify(value)}` });
  return "";
});

export const envSchema = object({
  NODE_ENV: oneOf(["production", "development", "test"]).default("production"),
  HOST: string().min(1).default("0.0.0.0"),
  PORT: port.default(3000),
  METRICS_PORT: port.default(9464),
  METRICS_HOST: string().min(1).default("0.0.0.0"),
  TRUST_PROXY: flag,
  /** Proxies in front that append to X-Forwarded-For; the client IP is read that many from the right. */
  PROXY_HOPS: positiveInt.default(1),
  ENABLE_DIAGNOSTIC_ROUTES: flag,
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  RENDER_TIMEOUT_MS: positiveInt.default(10_000),
  /** Largest request body a page route accepts (form, JSON or multipart fields); larger is 413. */
  BODY_MAX_BYTES: positiveInt.default(65_536),
  /** More origins trusted to send state-changing requests, besides the site's own. */
  ALLOWED_ORIGINS: commaList(origin),
  SENTRY_DSN: dsn.optional(),
  PUBLIC_SENTRY_DSN: dsn.optional(),
  SENTRY_ENVIRONMENT: string().min(1).optional(),
  SENTRY_RELEASE: string().min(1).optional(),
  SENTRY_TRACES_SAMPLE_RATE: coerce.number().min(0).max(1).default(0),
  SENTRY_TUNNEL_PATH: string()
    .regex(/^\/[A-Za-z0-9/_-]*$/, "expected a path such as /monitoring")
    .default(TUNNEL_DEFAULTS.path)
    .transform((value) => (value.length > 1 ? value.replace(/\/+$/, "") : value)),
  SENTRY_TUNNEL_ALLOWED_DSNS: commaList(dsn),
  SENTRY_TUNNEL_MAX_BYTES: positiveInt.default(TUNNEL_DEFAULTS.maxBytes),
  SENTRY_TUNNEL_RATE_LIMIT: nonNegativeInt.default(TUNNEL_DEFAULTS.rateLimitPerMinute),
  SENTRY_TUNNEL_CONNECT_TIMEOUT_MS: positiveInt.default(TUNNEL_DEFAULTS.connectTimeoutMs),
  SENTRY_TUNNEL_HEADERS_TIMEOUT_MS: positiveInt.default(TUNNEL_DEFAULTS.headersTimeoutMs),
  /** A directory, or `off`. */
  SENTRY_TUNNEL_SPOOL_DIR: string().min(1).default(TUNNEL_DEFAULTS.spoolDir),
  SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES: positiveInt.default(TUNNEL_DEFAULTS.spoolMaxEnvelopeBytes),
  SENTRY_TUNNEL_SPOOL_MAX_BYTES: positiveInt.default(TUNNEL_DEFAULTS.spoolMaxBytes),
  SENTRY_TUNNEL_SPOOL_MAX_AGE_SECONDS: positiveInt.default(TUNNEL_DEFAULTS.spoolMaxAgeSeconds),
  SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES: positiveInt.default(TUNNEL_DEFAULTS.spoolMaxMemoryBytes),
})
  .refine((env) => env.SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES <= env.SENTRY_TUNNEL_SPOOL_MAX_BYTES, {
    path: ["SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES"],
    message: "must not exceed SENTRY_TUNNEL_SPOOL_MAX_BYTES",
  })
  .refine((env) => env.SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES <= env.SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES, {
    path: ["SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES"],
    message: "must not exceed SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES",
  });

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

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(withoutEmpty(source));
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `  ${issue.path.join(".")}: ${issue.message}`,
  );
  throw new EnvError(`Invalid environment configuration:\n${problems.join("\n")}`);
}

/** For process entry points: an invalid environment ends start-up with exit 1 and the message. */
export function loadEnvOrExit(): Env {
  try {
    return loadEnv();
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
