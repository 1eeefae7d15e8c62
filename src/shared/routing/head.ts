import type { HeadTags, LinkTag, MetaTag, RouteModules } from "./module";
import type { RouteState } from "./route-state";

export interface DocumentHeadTags {
  title: string;
  description?: string;
  meta: MetaTag[];
  links?: LinkTag[];
  jsonLd?: Record<string, unknown>[];
  lang?: string;
}

/** The platform's plain error page, shown when no route has an error component. */
const PLAIN_ERROR_HEAD: HeadTags = { title: "Something went wrong" };

const NO_META: MetaTag[] = [];

const metaKey = (tag: MetaTag) => (tag.property ? `property:${tag.property}` : `name:${tag.name ?? ""}`);
const linkKey = (tag: LinkTag) => `${tag.rel} ${tag.hrefLang ?? ""} ${tag.sizes ?? ""} ${tag.media ?? ""}`;

/** Merges head tags along the chain, root first: the deepest route's title, description, language, each meta and link tag win; structured data adds up. */
export function mergeHead(chain: readonly HeadTags[]): DocumentHeadTags {
  let title = "";
  let description: string | undefined;
  let lang: string | undefined;
  let meta: Map<string, MetaTag> | undefined;
  let links: Map<string, LinkTag> | undefined;
  let jsonLd: Record<string, unknown>[] | undefined;
  for (const tags of chain) {
    if (tags.title !== undefined) title = tags.title;
    if (tags.description !== undefined) description = tags.description;
    if (tags.lang !== undefined) lang = tags.lang;
    if (tags.jsonLd) jsonLd = [...(jsonLd ?? []), ...tags.jsonLd];
    if (tags.links) {
      links ??= new Map();
      for (const tag of tags.links) links.set(linkKey(tag), tag);
    }
    if (!tags.meta) continue;
    meta ??= new Map();
    for (const tag of tags.meta) meta.set(metaKey(tag), tag);
  }
  const merged: DocumentHeadTags = { title, meta: meta ? [...meta.values()] : NO_META };
  if (description !== undefined) merged.description = description;
  if (lang !== undefined) merged.lang = lang;
  if (links) merged.links = [...links.values()];
  if (jsonLd) merged.jsonLd = jsonLd;
  return merged;
}

/** The head of a rendered state: each shown route's head from its data; an error component's errorHead last. */
export function headOf(state: RouteState, modules: RouteModules): DocumentHeadTags {
  if (state.error?.boundaryId === null) return mergeHead([PLAIN_ERROR_HEAD]);
  const chain: HeadTags[] = [];
  for (const match of state.matches) {
    const module = modules.get(match.id);
    if (state.error?.boundaryId === match.id) {
      if (module.head) chain.push(module.head({ data: state.data[match.id], params: match.params }));
      const { errorHead } = module;
      if (errorHead) chain.push(typeof errorHead === "function" ? errorHead({ error: state.error.error }) : errorHead);
      break;
    }
    if (module.head) chain.push(module.head({ data: state.data[match.id], params: match.params }));
  }
  return mergeHead(chain);
}
