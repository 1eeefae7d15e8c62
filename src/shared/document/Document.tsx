import type { ReactNode } from "react";
import type { DocumentHeadTags } from "../routing/head";

export interface DocumentProps {
  head: DocumentHeadTags;
  styles: readonly string[];
  modulePreloads: readonly string[];
  traceMeta: Record<string, string>;
  children: ReactNode;
}

/** The whole HTML document: React renders it on the server and hydrates it, head included, in the browser. */
export function Document({ head, styles, modulePreloads, traceMeta, children }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        {head.description === undefined ? null : <meta name="description" content={head.description} />}
        {head.meta.map((tag) => (
          <meta key={tag.property ?? tag.name} name={tag.name} property={tag.property} content={tag.content} />
        ))}
        {/* No favicon yet: this stops the browser requesting /favicon.ico and logging a 404. */}
        <link rel="icon" href="data:," />
        {Object.entries(traceMeta).map(([name, content]) => (
          <meta key={name} name={name} content={content} />
        ))}
        {styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {modulePreloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>{children}</body>
    </html>
  );
}
