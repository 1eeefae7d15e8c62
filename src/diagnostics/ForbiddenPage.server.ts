import { httpError } from "#outpost/server";

/** A 4xx a route means: shown by the nearest error component, neither logged as an error nor reported. */
export function load(): never {
  httpError(403, { reason: "This diagnostic page is forbidden to everybody." });
}
