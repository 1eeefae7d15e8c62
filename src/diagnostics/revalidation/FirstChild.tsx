import type { LoaderData, PageProps } from "#outpost";
import type { load } from "./FirstChild.server";

export default function FirstChild({ data }: PageProps<LoaderData<typeof load>>) {
  return <p id="child-name">{`${data.child} child`}</p>;
}
