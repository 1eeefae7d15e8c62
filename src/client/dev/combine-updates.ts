import type { HotUpdate } from "../../shared/dev/hot-protocol";

/** What the client parts of several updates come to: the latest chunk per route, chained stylesheets. */
export function combineClientParts(updates: HotUpdate[]): Pick<HotUpdate, "modules" | "styles" | "reload" | "reasons"> {
  const modules = new Map<string, HotUpdate["modules"][number]>();
  const styles: HotUpdate["styles"] = [];
  for (const update of updates) {
    for (const module of update.modules) modules.set(module.id, module);
    for (const { from, to } of update.styles) {
      const earlier = styles.find((style) => style.to === from);
      if (earlier) earlier.to = to;
      else styles.push({ from, to });
    }
  }
  return {
    modules: [...modules.values()],
    styles,
    reload: updates.some((update) => update.reload),
    reasons: updates.flatMap((update) => update.reasons),
  };
}
