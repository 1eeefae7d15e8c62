/** Never rendered: its loader throws, so operators can see a server error reach Sentry. */
export function serverErrorLoader(): never {
  throw new Error("diagnostic server error");
}

export function ServerErrorPage() {
  return <p>Unreachable: the loader throws.</p>;
}
