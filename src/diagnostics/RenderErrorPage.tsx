import type { HeadTags } from "#outpost";

export const head = (): HeadTags => ({ title: "Render error diagnostic" });

/** Throws while rendering, on the server before the shell is sent, and in the browser on navigation. */
export default function RenderErrorPage(): never {
  throw new Error("diagnostic render error");
}
