import type { LoaderData, PageProps } from "#outpost";
import type { load } from "./SecondChild.server";

export default function SecondChild({ data }: PageProps<LoaderData<typeof load>>) {
  return <p id="child-name">{`${data.child} child`}</p>;
}
