import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScrollPositions } from "#src/client/navigation/scroll-positions";

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
  vi.stubGlobal("window", window);
  vi.stubGlobal("sessionStorage", {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (storageFull) throw new DOMException("full", "QuotaExceededError");
      storage.set(key, value);
    },
  });
  vi.stubGlobal("document", {
    getElementById: (id: string) => (id === "details" || id === "100%" ? { scrollIntoView: () => scrolledIntoView.push(id) } : null),
  });
  return { window, storage, scrolledTo, scrolledIntoView, hide: () => listeners.get("pagehide")?.() };
}

describe("ScrollPositions", () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it("takes scroll restoration from the browser", () => {
    const { window } = fakeWindow();
    new ScrollPositions();
    expect(window.history.scrollRestoration).toBe("manual");
  });

  it("a new page starts at the top; back and forward return where the visitor was", () => {
    const { window, scrolledTo } = fakeWindow();
    const positions = new ScrollPositions();
    window.scrollY = 640;
    positions.save("entry-1");
    positions.restore("push", "entry-2", "");
    positions.restore("pop", "entry-1", "");
    positions.restore("pop", "never-seen", "");
    expect(scrolledTo).toEqual([0, 640, 0]);
  });

  it("a new page with a #hash scrolls to its target, decoded, or to the top when there is none", () => {
    const { scrolledTo, scrolledIntoView } = fakeWindow();
    const positions = new ScrollPositions();
    positions.restore("push", "a", "#details");
    positions.restore("replace", "b", "#100%");
    positions.restore("push", "c", "#missing");
    expect(scrolledIntoView).toEqual(["details", "100%"]);
    expect(scrolledTo).toEqual([0]);
  });

  it("a revalidation (mode none) leaves the scroll alone", () => {
    const { scrolledTo, scrolledIntoView } = fakeWindow();
    new ScrollPositions().restore("none", "a", "#details");
    expect([...scrolledTo, ...scrolledIntoView]).toEqual([]);
  });

  it("keeps the positions across a reload of the tab, through sessionStorage", () => {
    const first = fakeWindow();
    const positions = new ScrollPositions();
    first.window.scrollY = 300;
    positions.save("entry-1");
    first.hide();
    const saved = first.storage.get("outpost:scroll") ?? null;
    const second = fakeWindow(saved);
    new ScrollPositions().restore("pop", "entry-1", "");
    expect(second.scrolledTo).toEqual([300]);
  });

  it("a corrupt or refused storage starts afresh, never throws", () => {
    for (const stored of ["{not json", "null", "42"]) {
      const { scrolledTo } = fakeWindow(stored);
      new ScrollPositions().restore("pop", "entry-1", "");
      expect(scrolledTo).toEqual([0]);
    }
    const full = fakeWindow(null, { storageFull: true });
    new ScrollPositions().save("entry-1");
    expect(() => full.hide()).not.toThrow();
  });
});
