import type { HeadTags, MetaTag, RouteModules } from "./module";
import type { RouteState } from "./route-state";

export interface DocumentHeadTags {
  title: string;
  description?: string;
  meta: MetaTag[];
}

/** The platform's plain error page, shown when no route has an error component. */
const PLAIN_ERROR_HEAD: HeadTags = { title: "Something went wrong" };

const metaKey = (tag: MetaTag) => (tag.property ? `property:${tag.property}` : `name:${tag.name ?? ""}`);

/** Merges head tags along the chain, root first: the deepest route's title, description and each meta tag win. */
export function mergeHead(chain: readonly HeadTags[]): DocumentHeadTags {
  let title = "";
  let description: string | undefined;
  const meta = new Map<string, MetaTag>();
  for (const tags of chain) {
    if (tags.title !== undefined) title = tags.title;
    if (tags.description !== undefined) description = tags.description;
    for (const tag of tags.meta ?? []) meta.set(metaKey(tag), tag);
  }
  return { title, ...(description === undefined ? {} : { description }), meta: [...meta.values()] };
}

/** The head of a rendered state: each shown route's head from its data; an error component's errorHead last. */
export function headOf(state: RouteState, modules: RouteModules): DocumentHeadTags {
  if (state.error?.boundaryId === null) return mergeHead([PLAIN_ERROR_HEAD]);
  const chain: HeadTags[] = [];
  for (const match of state.matches) {
    const module = modules.get(match.id);
    if (state.error?.boundaryId === match.id) {
      if (module.head) chain.push(module.head({ data: state.data[match.id], params: match.params }));
      if (module.errorHead) chain.push(module.errorHead);
      break;
    }
    if (module.head) chain.push(module.head({ data: state.data[match.id], params: match.params }));
  }
  return mergeHead(chain);
}
