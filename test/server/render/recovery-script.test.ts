import vm from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { recoveryScript } from "#src/server/render/recovery-script";
import { RELOAD_ONCE_GLOBAL } from "#src/shared/document/recovery";

/** The document's recovery script run against a fake browser: its history entry survives a "reload", as a real one does. */
function documentWith(method: string, entry: { state: unknown } = { state: null }) {
  let onError: ((event: { target: unknown }) => void) | undefined;
  const inserted: Array<{ type: string; src: string }> = [];
  const log = { reloads: 0 };
  const window: Record<string, unknown> = {
    addEventListener: (type: string, listener: typeof onError, capture: boolean) => {
      if (type === "error" && capture) onError = listener;
    },
  };
  const context = {
    window,
    document: { createElement: () => ({ type: "", src: "" }), head: { append: (script: { type: string; src: string }) => inserted.push(script) } },
    history: {
      get state() {
        return entry.state;
      },
      replaceState: (state: unknown) => {
        entry.state = state;
      },
    },
    location: { reload: () => log.reloads++ },
    setTimeout: (run: () => void) => run(),
    Date,
    Object,
  };
  vm.runInNewContext(recoveryScript(method), context);
  const failed = (target: unknown) => onError?.({ target });
  return { entry, log, inserted, failed, reloadOnce: () => (window[RELOAD_ONCE_GLOBAL] as () => boolean)() };
}

const entryScript = { tagName: "SCRIPT", type: "module", src: "https://shop.example/assets/entry-A.js" };

describe("the document's recovery script", () => {
  it("inserts a failed module script again twice, then reloads the document", () => {
    const page = documentWith("GET");
    page.failed(entryScript);
    page.failed(entryScript);
    expect(page.inserted).toEqual([
      { type: "module", src: entryScript.src },
      { type: "module", src: entryScript.src },
    ]);
    expect(page.log.reloads).toBe(0);
    page.failed(entryScript);
    expect(page.log.reloads).toBe(1);
  });

  it("ignores what is not a module script: a stylesheet, an image, a preload, the window's own errors", () => {
    const page = documentWith("GET");
    for (const target of [{ tagName: "LINK" }, { tagName: "IMG" }, { tagName: "SCRIPT", type: "" }, {}]) page.failed(target);
    expect(page.inserted).toEqual([]);
    expect(page.log.reloads).toBe(0);
  });

  it("reloads once: the reloaded document, on the same history entry, refuses a second reload within the guard", () => {
    const entry = { state: { key: "k1" } as unknown };
    const first = documentWith("GET", entry);
    expect(first.reloadOnce()).toBe(true);
    expect(entry.state).toMatchObject({ key: "k1" });
    const reloaded = documentWith("GET", entry);
    expect(reloaded.reloadOnce()).toBe(false);
    expect(first.log.reloads + reloaded.log.reloads).toBe(1);
  });

  it("reloads again once the guard has passed", () => {
    vi.useFakeTimers({ now: Date.parse("2026-12-01T10:00:00Z") });
    try {
      const entry = { state: null as unknown };
      expect(documentWith("GET", entry).reloadOnce()).toBe(true);
      vi.setSystemTime(Date.parse("2026-12-01T10:01:01Z"));
      expect(documentWith("GET", entry).reloadOnce()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never reloads a document that answered a POST, which would submit the form again", () => {
    const page = documentWith("POST");
    for (let i = 0; i < 3; i++) page.failed(entryScript);
    expect(page.inserted).toHaveLength(2);
    expect(page.reloadOnce()).toBe(false);
    expect(page.log.reloads).toBe(0);
  });
});
