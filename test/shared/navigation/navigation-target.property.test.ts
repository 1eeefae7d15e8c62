import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fragmentId, navigationTarget } from "#src/shared/navigation/navigation-target";

const BASE = "https://shop.example/feedback?x=1#top";
const ORIGIN = "https://shop.example";

// Hrefs as a page, a redirect or an attacker might write them: schemes, // and \\ prefixes, stray %, any code unit.
const piece = fc.oneof(
  fc.constantFrom("javascript:", "JavaScript:", "data:", "mailto:", "http:", "https:", "ftp:", "//", "\\\\", "/\\", "/", "%", "%zz", "#", "?", "@", ":", "[", "]", " ", "\t", "\n", "..", "shop.example", "evil.example", ORIGIN),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.webUrl({ withFragments: true, withQueryParameters: true }),
);
const href = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(""));

describe("navigationTarget", () => {
  it("never throws, and only this origin's http(s) URLs are navigated on the client", () => {
    fc.assert(
      fc.property(href, (to) => {
        const target = navigationTarget(to, BASE);
        if (target.kind === "refused") return;
        expect(["http:", "https:"]).toContain(target.url.protocol);
        if (target.kind === "client") expect(target.url.origin).toBe(ORIGIN);
        else expect(target.url.origin).not.toBe(ORIGIN);
      }),
      { numRuns: 5_000 },
    );
  });

  it("agrees with the browser's own resolution of the href", () => {
    fc.assert(
      fc.property(href, (to) => {
        const target = navigationTarget(to, BASE);
        let resolved: URL | null = null;
        try {
          resolved = new URL(to, BASE);
        } catch {}
        if (target.kind === "refused") expect(resolved === null || !/^https?:$/.test(resolved.protocol)).toBe(true);
        else expect(target.url.href).toBe(resolved?.href);
      }),
      { numRuns: 2_000 },
    );
  });

  it("works from a base whose path starts with //", () => {
    fc.assert(
      fc.property(href, (to) => {
        const target = navigationTarget(to, `${ORIGIN}//feedback`);
        if (target.kind === "client") expect(target.url.origin).toBe(ORIGIN);
      }),
    );
  });

  it("decides the cases seen in the wild", () => {
    expect(navigationTarget("javascript:alert(1)", BASE)).toEqual({ kind: "refused" });
    expect(navigationTarget("http://[", BASE)).toEqual({ kind: "refused" });
    expect(navigationTarget("//example.org/y", BASE)).toMatchObject({ kind: "document", url: new URL("https://example.org/y") });
    expect(navigationTarget("https://example.org/x", BASE)).toMatchObject({ kind: "document" });
    expect(navigationTarget("/feedback#100%", BASE)).toMatchObject({ kind: "client", url: new URL(`${ORIGIN}/feedback#100%`) });
    // A path that starts with //, given as a whole URL, stays on this origin.
    expect(navigationTarget(`${ORIGIN}//feedback`, BASE)).toMatchObject({ kind: "client", url: { pathname: "//feedback" } });
  });
});

describe("fragmentId", () => {
  it("never throws, and decodes whatever decodes", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("%", "2", "5", "E", "9", "a", "#", "\ud800", "é") }), (hash) => {
        const id = fragmentId(`#${hash}`);
        let decoded: string | null = null;
        try {
          decoded = decodeURIComponent(hash);
        } catch {}
        expect(id).toBe(decoded ?? hash);
      }),
    );
    expect(fragmentId("#100%")).toBe("100%");
    expect(fragmentId("#caf%C3%A9")).toBe("café");
  });
});
