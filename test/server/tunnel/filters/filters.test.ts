import { describe, expect, it } from "vitest";
import { filterEvent, TUNNEL_FILTERS } from "#src/server/tunnel/filters";

const thrownAt = (url: string) => ({ exception: { values: [{ type: "Error", value: "boom", stacktrace: { frames: [{ abs_path: "https://shop.example/app.js" }, { abs_path: url }] } }] } });
const onPage = (url: string) => ({ request: { url } });
const withAgent = (userAgent: string, name = "User-Agent") => ({ request: { url: "https://shop.example/", headers: { [name]: userAgent } } });

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

describe("inbound filters, one at a time", () => {
  it("browser-extensions: an error thrown in an extension's script, or with a message extensions cause", () => {
    const only = ["browser-extensions"] as const;
    for (const url of ["chrome-extension://abc/content.js", "moz-extension://abc/x.js", "safari-web-extension://abc/x.js"]) {
      expect(filterEvent(only, thrownAt(url))).toBe("browser-extensions");
    }
    expect(filterEvent(only, { exception: { values: [{ type: "TypeError", value: "can't redefine non-configurable property \"solana\"" }] } })).toBe("browser-extensions");
    expect(filterEvent(only, thrownAt("https://shop.example/app.js"))).toBeUndefined();
    // An extension frame lower in the stack did not throw it.
    expect(filterEvent(only, { exception: { values: [{ stacktrace: { frames: [{ abs_path: "chrome-extension://abc/x.js" }, { abs_path: "https://shop.example/app.js" }] } }] } })).toBeUndefined();
  });

  it("localhost: a page on localhost, 127.0.0.1, ::1, *.localhost or file://", () => {
    const only = ["localhost"] as const;
    for (const url of ["http://localhost:3000/", "http://127.0.0.1/cart", "http://[::1]:8080/", "https://shop.localhost/", "file:///home/me/index.html"]) {
      expect(filterEvent(only, onPage(url))).toBe("localhost");
    }
    for (const url of ["https://shop.example/", "https://localhost.example.com/", "not a url"]) expect(filterEvent(only, onPage(url))).toBeUndefined();
    expect(filterEvent(only, {})).toBeUndefined();
  });

  it("web-crawlers: the event's User-Agent is a bot (isbot), whatever the header name's case", () => {
    const only = ["web-crawlers"] as const;
    expect(filterEvent(only, withAgent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))).toBe("web-crawlers");
    expect(filterEvent(only, withAgent("Mozilla/5.0 (compatible; bingbot/2.0)", "user-agent"))).toBe("web-crawlers");
    expect(filterEvent(only, { request: { headers: [["User-Agent", "AhrefsBot/7.0"]] } })).toBe("web-crawlers");
    expect(filterEvent(only, withAgent(CHROME))).toBeUndefined();
  });

  it("applies only the filters it is given", () => {
    expect(filterEvent([], onPage("http://localhost/"))).toBeUndefined();
    expect(filterEvent(["web-crawlers"], onPage("http://localhost/"))).toBeUndefined();
    expect(TUNNEL_FILTERS).toEqual(["browser-extensions", "localhost", "web-crawlers"]);
  });
});
