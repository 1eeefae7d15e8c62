import type { ReactNode } from "react";
import type { DocumentHead } from "./payload";

/** The whole HTML document: React renders it on the server and hydrates it in the browser. */
export function Document({ head, children }: { head: DocumentHead; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        {/* No favicon yet: this stops the browser requesting /favicon.ico and logging a 404. */}
        <link rel="icon" href="data:," />
        {Object.entries(head.traceMeta).map(([name, content]) => (
          <meta key={name} name={name} content={content} />
        ))}
        {head.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {head.modulePreloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <header className="site-header">
          <a href="/" className="brand">
            Outpost
          </a>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">Outpost</footer>
      </body>
    </html>
  );
}
