import { fragmentId } from "../../shared/navigation/navigation-target";

// Scroll positions by history entry, kept across reloads of the tab so back and forward restore them.
const STORAGE_KEY = "outpost:scroll";

export type HistoryMode = "push" | "replace" | "pop" | "none";

/** Where to scroll once a new page has rendered: the top, a `#hash` target, or where the visitor was. */
export class ScrollPositions {
  readonly #positions: Record<string, number>;

  constructor() {
    window.history.scrollRestoration = "manual";
    this.#positions = readStored();
    window.addEventListener("pagehide", () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(this.#positions));
      } catch {} // storage full or refused: back/forward after a reload then starts at the top
    });
  }

  save(key: string): void {
    this.#positions[key] = window.scrollY;
  }

  /** After the page for `key` has rendered. */
  restore(mode: HistoryMode, key: string, hash: string): void {
    if (mode === "none") return;
    if (mode === "pop" && key in this.#positions) {
      window.scrollTo(0, this.#positions[key] ?? 0);
      return;
    }
    const target = hash ? document.getElementById(fragmentId(hash)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }
}

function readStored(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}
