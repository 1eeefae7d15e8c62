// The page without the session: the same answer from a constant, so the pair measures the session's cost alone.
export function load(): { name: string } {
  return { name: "guest" };
}
