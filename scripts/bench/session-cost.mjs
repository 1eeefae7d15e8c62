// What reading the session costs a page: the realistic app's /visitor (its loader reads the
// signed session cookie) beside /greeting (the same component, its loader a constant), two
// servers of one build pinned to one core and loaded at once (lib/paired.mjs), both sent the
// same valid session cookie. Then the same page with its session in Redis (SESSION_STORE=redis)
// beside the cookie session's. Run alone: `node scripts/bench/session-cost.mjs [rounds] [seconds]`.
import { cpuRatio, pairedRatio, pairFigures } from "./lib/paired.mjs";
import { BROWSER_UA, OUT_REL, sleep, startServer } from "./lib/proc.mjs";
import { startRedis } from "./lib/redis-server.mjs";
import { fmt, target } from "./lib/stats.mjs";

export const SESSION_SECRET = "a-bench-session-secret-of-at-least-32-chars";

/** A valid session cookie: the page's action sets a name, as a visitor's form would. */
export async function sessionCookie(server) {
  const answer = await fetch(`${server.origin}/visitor`, { method: "POST", body: new URLSearchParams({ name: "guest" }), redirect: "manual" });
  const cookie = answer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  if (!cookie.includes("outpost.session=")) throw new Error(`the bench's session page set no session cookie (status ${answer.status})`);
  return cookie;
}

export async function sessionCost({ outRel, paired, redisRounds = paired.rounds }) {
  const cookie = await costPair([{ SESSION_SECRET }, { SESSION_SECRET }], ["/greeting", "/visitor"], { outRel, paired });
  const cookieVerdict = target("Sessions: a page that reads the session costs <= 1.10 × the same page without", cookie.cost <= 1.1, `${fmt.x(cookie.cost)} (paired)`);
  const redis = await startRedis().catch((error) => ({ error }));
  if (redis.error) {
    const note = `Session cost: greeting ÷ visitor req/s per round: ${pairFigures(cookie.pair)}. The Redis session page was not measured: ${redis.error.message} (apt-get install -y redis-server).`;
    return { verdicts: [cookieVerdict], note };
  }
  try {
    // Judged by CPU per request, over more rounds than the cookie pair (run.mjs): the Redis page also waits on a redis-server that
    // shares CPU 1 with the load generators, and in that wait the cookie page takes more of the
    // shared core, which the req/s ratio counts as cost (decision 0113).
    const stored = await costPair([{ SESSION_SECRET }, { SESSION_SECRET, SESSION_STORE: "redis", REDIS_URL: redis.url }], ["/visitor", "/visitor"], {
      outRel,
      paired: { ...paired, rounds: redisRounds },
    });
    const storedCpu = 1 / cpuRatio(stored.pair);
    return {
      verdicts: [
        cookieVerdict,
        target(
          "Sessions: a page that reads a Redis session costs <= 1.15 × the cookie session's",
          storedCpu <= 1.15,
          `${fmt.x(storedCpu)} by CPU per request (paired req/s ${fmt.x(stored.cost)})`,
        ),
      ],
      note: `Session cost: /visitor (its loader reads the session) and /greeting (the same component, its loader a constant), two servers of the realistic app's build pinned to CPU 0 and loaded at once by one autocannon each on CPU 1 (50 connections), each sent a valid session cookie; greeting ÷ visitor req/s per round: ${pairFigures(cookie.pair)}. Then /visitor with the session in its cookie beside /visitor with SESSION_STORE=redis (a local redis-server, unpinned), judged by CPU per request (Redis ÷ cookie, the median of the rounds), cookie ÷ Redis req/s per round: ${pairFigures(stored.pair)}.`,
    };
  } finally {
    await redis.stop();
  }
}

/** A session cookie once the server's store takes sessions (a Redis store: once it is connected, within a few seconds). */
async function sessionCookieOnceReady(server) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sessionCookie(server);
    } catch (error) {
      if (attempt >= 50) throw error;
      await sleep(100);
    }
  }
}

/** Two servers with their own environment and page, each sent its own session cookie: b's CPU per page ÷ a's. */
async function costPair(envs, pages, { outRel, paired }) {
  const servers = await Promise.all(envs.map((env) => startServer(env, { outRel })));
  try {
    const cookies = new Map(await Promise.all(servers.map(async (server) => [server, await sessionCookieOnceReady(server)])));
    const page = new Map(servers.map((server, index) => [server, pages[index]]));
    const input = (server) => ({ url: `${server.origin}${page.get(server)}`, headers: { "user-agent": BROWSER_UA, cookie: cookies.get(server) } });
    const pair = await pairedRatio(servers, { input, ...paired, connections: 50 });
    // req/s of a ÷ b is b's CPU per page ÷ a's.
    return { pair, cost: 1 / pair.ratio };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Alone: the realistic app's build, as realistic.mjs makes it.
  const { buildProduction } = await import("./lib/build.mjs");
  const outRel = `${OUT_REL}/realistic`;
  buildProduction({ outRel, appDir: "scripts/bench/realistic-app" });
  const [rounds = 3, seconds = 5] = process.argv.slice(2).map(Number);
  const { note } = await sessionCost({ outRel, paired: { rounds, seconds } });
  console.log(note);
  process.exit(0);
}
