// What reading the session costs a page: the realistic app's /visitor (its loader reads the
// signed session cookie) beside /greeting (the same component, its loader a constant), two
// servers of one build pinned to one core and loaded at once (lib/paired.mjs), both sent the
// same valid session cookie.
import { pairedRatio, pairFigures } from "./lib/paired.mjs";
import { BROWSER_UA, startServer } from "./lib/proc.mjs";
import { fmt, target } from "./lib/stats.mjs";

export const SESSION_SECRET = "a-bench-session-secret-of-at-least-32-chars";

/** A valid session cookie: the page's action sets a name, as a visitor's form would. */
export async function sessionCookie(server) {
  const answer = await fetch(`${server.origin}/visitor`, { method: "POST", body: new URLSearchParams({ name: "guest" }), redirect: "manual" });
  const cookie = answer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  if (!cookie.includes("outpost.session=")) throw new Error(`the bench's session page set no session cookie (status ${answer.status})`);
  return cookie;
}

export async function sessionCost({ outRel, paired }) {
  const servers = [await startServer({ SESSION_SECRET }, { outRel }), await startServer({ SESSION_SECRET }, { outRel })];
  try {
    const cookie = await sessionCookie(servers[1]);
    const pages = new Map([
      [servers[0], "/greeting"],
      [servers[1], "/visitor"],
    ]);
    const input = (server) => ({ url: `${server.origin}${pages.get(server)}`, headers: { "user-agent": BROWSER_UA, cookie } });
    const pair = await pairedRatio(servers, { input, ...paired, connections: 50 });
    // req/s without ÷ with is the session page's CPU per page ÷ the plain page's.
    const cost = 1 / pair.ratio;
    return {
      verdicts: [target("Sessions: a page that reads the session costs <= 1.10 × the same page without", cost <= 1.1, `${fmt.x(cost)} (paired)`)],
      note: `Session cost: /visitor (its loader reads a signed koa-session cookie) and /greeting (the same component, its loader a constant), two servers of the realistic app's build pinned to CPU 0 and loaded at once by one autocannon each on CPU 1 (50 connections), both sent the same valid session cookie; greeting ÷ visitor req/s per round: ${pairFigures(pair)}.`,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
