import type { HeadTags } from "../../../src/shared/routing/module";

export const head = (): HeadTags => ({ title: "Not found" });

export default function NotFound() {
  return <h1>Nothing here</h1>;
}
