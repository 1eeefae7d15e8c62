import type { ReactNode } from "react";
import type { DocumentHeadTags } from "../routing/head";
import { scriptJson } from "./serialize";

export interface DocumentProps {
  head: DocumentHeadTags;
  styles: readonly string[];
  traceMeta: Record<string, string>;
  /** The app's public folder has a favicon.ico. */
  favicon?: boolean;
  children: ReactNode;
}

/** The whole HTML document: React renders it on the server and hydrates it, head included, in the browser. */
export function Document({ head, styles, traceMeta, favicon = false, children }: DocumentProps) {
  return (
    <html lang={head.lang ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        {head.description === undefined ? null : <meta name="description" content={head.description} />}
        {head.meta.map((tag) => (
          <meta key={tag.property ?? tag.name} name={tag.name} property={tag.property} content={tag.content} />
        ))}
        {/* Without an icon of its own, "data:," stops the browser requesting /favicon.ico and logging a 404. */}
        {head.links?.some((link) => link.rel === "icon") ? null : <link rel="icon" href={favicon ? "/favicon.ico" : "data:,"} />}
        {head.links?.map((link) => (
          <link key={`${link.rel} ${link.href} ${link.hrefLang ?? ""} ${link.sizes ?? ""}`} {...link} />
        ))}
        {head.jsonLd?.map((data, index) => (
          // Data for search engines, never run: JSON escaped so no value can close the element.
          // Plain JSON.stringify: the named-value errors of serializeForScript would ship their walk to every browser.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by scriptJson.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the document.
          <script key={index} type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(JSON.stringify(data)) }} />
        ))}
        {Object.entries(traceMeta).map(([name, content]) => (
          <meta key={name} name={name} content={content} />
        ))}
        {styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
      </head>
      <body>{children}</body>
    </html>
  );
}
