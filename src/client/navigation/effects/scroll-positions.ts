import { fragmentId } from "../../../shared/navigation/navigation-target";
import type { RouterState } from "../../../shared/navigation/router-state";
import type { RouterEnvironment } from "../core/environment";

// Scroll positions by history entry, kept across reloads of the tab so back and forward restore them.
const STORAGE_KEY = "outpost:scroll";

type ScrollEnvironment = Pick<RouterEnvironment, "history" | "sessionStorage" | "window" | "document">;

/** Where to scroll once a new page has rendered: the top, a `#hash` target, or where the visitor was. */
export class ScrollPositions {
  readonly #env: ScrollEnvironment;
  readonly #positions: Record<string, number>;

  constructor(env: ScrollEnvironment) {
    this.#env = env;
    env.history.scrollRestoration = "manual";
    this.#positions = readStored(env);
    env.window.addEventListener("pagehide", () => {
      try {
        env.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(this.#positions));
      } catch {} // storage full or refused: back/forward after a reload then starts at the top
    });
  }

  save(key: string): void {
    this.#positions[key] = this.#env.window.scrollY;
  }

  /** After the page for `key` has rendered. */
  restore(action: RouterState["historyAction"], key: string, hash: string): void {
    if (action === "pop" && key in this.#positions) {
      this.#env.window.scrollTo(0, this.#positions[key] ?? 0);
      return;
    }
    const target = hash ? this.#env.document.getElementById(fragmentId(hash)) : null;
    if (target) target.scrollIntoView();
    else this.#env.window.scrollTo(0, 0);
  }
}

function readStored(env: ScrollEnvironment): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(env.sessionStorage.getItem(STORAGE_KEY) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}
