import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Document } from "#src/shared/document/Document";

const render = (head: Parameters<typeof Document>[0]["head"]) =>
  renderToStaticMarkup(
    <Document head={head} styles={[]} traceMeta={{}} favicon>
      <p>body</p>
    </Document>,
  );

describe("the document's head", () => {
  it("sets <html lang>, the links and JSON-LD, escaped so no value closes the script", () => {
    const html = render({
      title: "T",
      meta: [],
      lang: "de",
      links: [{ rel: "canonical", href: "https://example.org/x" }],
      jsonLd: [{ "@type": "Thing", name: "</script><script>alert(1)</script>" }],
    });
    expect(html).toMatch(/^<html lang="de">/);
    expect(html).toContain('<link rel="canonical" href="https://example.org/x"/>');
    expect(html).toContain('<script type="application/ld+json">{"@type":"Thing","name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}</script>');
  });

  it("links /favicon.ico (when the app has one) unless a route names its own icon, and says English by default", () => {
    const plain = render({ title: "T", meta: [] });
    expect(plain).toMatch(/^<html lang="en">/);
    expect(plain).toContain('<link rel="icon" href="/favicon.ico"/>');
    const own = render({ title: "T", meta: [], links: [{ rel: "icon", href: "/icon.svg", type: "image/svg+xml" }] });
    expect(own).not.toContain("/favicon.ico");
    expect(own).toContain('<link rel="icon" href="/icon.svg" type="image/svg+xml"/>');
    const none = renderToStaticMarkup(
      <Document head={{ title: "T", meta: [] }} styles={[]} traceMeta={{}}>
        <p />
      </Document>,
    );
    expect(none).toContain('<link rel="icon" href="data:,"/>');
  });
});
