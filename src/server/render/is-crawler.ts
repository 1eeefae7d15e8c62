import { isbot } from "isbot";
import { LRUCache } from "lru-cache";

// isbot tests one very large regular expression (~10 µs a call); a site sees few distinct
// User-Agents, so the answers are remembered, bounded so that made-up ones cannot grow memory.
const answers = new LRUCache<string, boolean>({ max: 2_000 });
// Longer strings are not remembered: an attacker could otherwise fill the cache with megabytes.
const MAX_REMEMBERED_LENGTH = 512;

/** Crawlers get the whole document at once (waitForAll); browsers get the streamed shell first. */
export function isCrawler(userAgent: string): boolean {
  const known = answers.get(userAgent);
  if (known !== undefined) return known;
  const crawler = isbot(userAgent);
  if (userAgent.length <= MAX_REMEMBERED_LENGTH) answers.set(userAgent, crawler);
  return crawler;
}
