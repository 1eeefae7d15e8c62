/** Throws, so operators can see a server error reach Sentry. */
export function load(): never {
  throw new Error("diagnostic server error");
}
