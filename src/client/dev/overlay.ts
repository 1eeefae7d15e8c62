import type { BuildProblem } from "../../shared/dev/hot-protocol";

/** The overlay's element id; tests look for it. */
export const OVERLAY_ID = "outpost-dev-overlay";

type Source = "build" | "runtime";
let shownFor: Source | null = null;

/** Shows esbuild's errors: message, file, line and code frame. */
export function showBuildProblems(problems: BuildProblem[]): void {
  if (problems.length === 0) hideOverlay("build");
  else show("build", "Build failed", problems);
}

/** Shows an error thrown while an update was applied (a module that throws, a render that fails). */
export function showRuntimeError(error: unknown): void {
  if (shownFor === "build") return; // the build error explains more
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const frame = error instanceof Error ? error.stack?.split("\n").slice(1, 8).join("\n") : undefined;
  show("runtime", "Runtime error while applying an update", [{ message, frame }]);
}

/** Removes the overlay if it shows this kind of error (a good build removes either kind). */
export function hideOverlay(source: Source | "any"): void {
  if (shownFor === null || (source !== "any" && source !== shownFor)) return;
  document.getElementById(OVERLAY_ID)?.remove();
  shownFor = null;
}

function show(source: Source, title: string, problems: BuildProblem[]): void {
  document.getElementById(OVERLAY_ID)?.remove();
  shownFor = source;
  const overlay = element("div", {
    position: "fixed",
    inset: "0",
    zIndex: "2147483647",
    overflow: "auto",
    padding: "2rem",
    background: "rgb(24 24 27 / 0.96)",
    color: "#f4f4f5",
    font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace",
  });
  overlay.id = OVERLAY_ID;
  overlay.dataset.source = source;
  overlay.setAttribute("role", "alert");
  overlay.append(element("h2", { color: "#f87171", margin: "0 0 1rem", fontSize: "1.25rem" }, title));
  for (const problem of problems) {
    const where = problem.file ? `${problem.file}:${problem.line ?? 0}:${problem.column ?? 0}` : "";
    if (where) overlay.append(element("div", { color: "#a1a1aa" }, where));
    overlay.append(element("div", { margin: "0.25rem 0", fontWeight: "bold", whiteSpace: "pre-wrap" }, problem.message));
    if (problem.frame) {
      overlay.append(element("pre", { margin: "0.5rem 0 1.5rem", padding: "1rem", background: "#27272a", overflow: "auto" }, problem.frame));
    }
  }
  overlay.append(element("div", { color: "#a1a1aa", marginTop: "1rem" }, "Fix the file and save: the next good build removes this."));
  document.body.append(overlay);
}

function element(tag: string, style: Partial<CSSStyleDeclaration>, text?: string): HTMLElement {
  const node = document.createElement(tag);
  Object.assign(node.style, style);
  if (text !== undefined) node.textContent = text;
  return node;
}
