import type { HotUpdate } from "../../shared/dev/hot-protocol";

/** What the client parts of several updates come to: the latest chunk per route, chained stylesheets. */
export function combineClientParts(updates: HotUpdate[]): Pick<HotUpdate, "modules" | "styles" | "reload"> {
  const modules = new Map<string, string>();
  const styles: HotUpdate["styles"] = [];
  for (const update of updates) {
    for (const { id, url } of update.modules) modules.set(id, url);
    for (const { from, to } of update.styles) {
      const earlier = styles.find((style) => style.to === from);
      if (earlier) earlier.to = to;
      else styles.push({ from, to });
    }
  }
  return {
    modules: [...modules].map(([id, url]) => ({ id, url })),
    styles,
    reload: updates.some((update) => update.reload),
  };
}
