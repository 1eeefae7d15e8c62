import { rateLimit } from "#outpost/server";

/** Three visits a minute per client IP, counted across replicas when they share a Redis. */
export const middleware = [rateLimit({ name: "diagnostics-limited", points: 3, duration: 60 })];
