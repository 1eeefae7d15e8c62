import { chromium } from "playwright-core";
import { mkdtempSync } from "node:fs";
import http from "node:http";
const seen = [];
const server = http.createServer((req, res) => {
  seen.push(req.url);
  if (req.url === "/") { res.writeHead(200, { "content-type": "text/html", link: "</a.js>; rel=modulepreload, </b.js>; rel=modulepreload", "content-security-policy": "script-src 'nonce-x' 'strict-dynamic'" }); res.end("<!doctype html><p>hi</p>"); return; }
  res.writeHead(200, { "content-type": "text/javascript" }); res.end("export const x = 1;");
}).listen(0, async () => {
  const ctx = await chromium.launchPersistentContext(mkdtempSync("/tmp/pw-"), { executablePath: "/usr/bin/chromium", headless: true, args: ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
  const page = await ctx.newPage();
  page.on("console", (m) => console.log("console", m.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForTimeout(800);
  console.log(seen);
  await ctx.close(); server.close();
});
