import type { HeadTags } from "#outpost";

export const head = (): HeadTags => ({ title: "Server error diagnostic" });

/** Never rendered: its loader throws. */
export default function ServerErrorPage() {
  return <p>Unreachable: the loader throws.</p>;
}
