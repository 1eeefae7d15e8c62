import { describe, expect, it } from "vitest";
import type { RouterEnvironment } from "#src/client/navigation/core/environment";
import { ScrollPositions } from "#src/client/navigation/effects/scroll-positions";

let env: RouterEnvironment;

/** Just enough of a browser window for the scroll positions: history, scrolling, pagehide, storage and elements by id. */
function fakeWindow(stored: string | null = null, { storageFull = false } = {}) {
  const listeners = new Map<string, () => void>();
  const storage = new Map<string, string>(stored === null ? [] : [["outpost:scroll", stored]]);
  const scrolledTo: number[] = [];
  const scrolledIntoView: string[] = [];
  const window = {
    scrollY: 0,
    history: { scrollRestoration: "auto" },
    addEventListener: (type: string, listener: () => void) => listeners.set(type, listener),
    scrollTo: (_x: number, y: number) => scrolledTo.push(y),
  };
  const sessionStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (storageFull) throw new DOMException("full", "QuotaExceededError");
      storage.set(key, value);
    },
  };
  const document = {
    getElementById: (id: string) => (id === "details" || id === "100%" ? { scrollIntoView: () => scrolledIntoView.push(id) } : null),
  };
  env = { window, history: window.history, sessionStorage, document } as unknown as RouterEnvironment;
  return { window, storage, scrolledTo, scrolledIntoView, hide: () => listeners.get("pagehide")?.() };
}

describe("ScrollPositions", () => {
  it("takes scroll restoration from the browser", () => {
    const { window } = fakeWindow();
    new ScrollPositions(env);
    expect(window.history.scrollRestoration).toBe("manual");
  });

  it("a new page starts at the top; back and forward return where the visitor was", () => {
    const { window, scrolledTo } = fakeWindow();
    const positions = new ScrollPositions(env);
    window.scrollY = 640;
    positions.save("entry-1");
    positions.restore("push", "entry-2", "");
    positions.restore("pop", "entry-1", "");
    positions.restore("pop", "never-seen", "");
    expect(scrolledTo).toEqual([0, 640, 0]);
  });

  it("a new page with a #hash scrolls to its target, decoded, or to the top when there is none", () => {
    const { scrolledTo, scrolledIntoView } = fakeWindow();
    const positions = new ScrollPositions(env);
    positions.restore("push", "a", "#details");
    positions.restore("replace", "b", "#100%");
    positions.restore("push", "c", "#missing");
    expect(scrolledIntoView).toEqual(["details", "100%"]);
    expect(scrolledTo).toEqual([0]);
  });

  it("keeps the positions across a reload of the tab, through sessionStorage", () => {
    const first = fakeWindow();
    const positions = new ScrollPositions(env);
    first.window.scrollY = 300;
    positions.save("entry-1");
    first.hide();
    const saved = first.storage.get("outpost:scroll") ?? null;
    const second = fakeWindow(saved);
    new ScrollPositions(env).restore("pop", "entry-1", "");
    expect(second.scrolledTo).toEqual([300]);
  });

  it("a corrupt or refused storage starts afresh, never throws", () => {
    for (const stored of ["{not json", "null", "42"]) {
      const { scrolledTo } = fakeWindow(stored);
      new ScrollPositions(env).restore("pop", "entry-1", "");
      expect(scrolledTo).toEqual([0]);
    }
    const full = fakeWindow(null, { storageFull: true });
    new ScrollPositions(env).save("entry-1");
    expect(() => full.hide()).not.toThrow();
  });
});
