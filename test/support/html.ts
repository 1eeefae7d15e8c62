import { PAYLOAD_GLOBAL, type DocumentPayload } from "#src/shared/document/payload";

/** Opening tags of every <script> element in a document. */
export function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}

/** The payload the server's bootstrap script assigns, parsed as the browser would. */
export function documentPayload(html: string): DocumentPayload {
  const prefix = `window.${PAYLOAD_GLOBAL}=`;
  const start = html.indexOf(prefix);
  if (start < 0) throw new Error("no bootstrap payload in document");
  const end = html.indexOf("</script>", start);
  return JSON.parse(html.slice(start + prefix.length, end)) as DocumentPayload;
}

/** A desktop Chrome's user agent: pages stream to it, where a crawler gets each page whole. */
export const BROWSER_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
