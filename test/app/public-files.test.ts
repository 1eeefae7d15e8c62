import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { productBuild } from "../support/builds";
import { PRODUCT_APP, ROOT } from "../support/paths";
import { startProductApp } from "../support/product-app";

describe("the shipped app's public files", () => {
  it("are copied by the production build, robots.txt and favicon.ico included", () => {
    for (const file of ["robots.txt", "favicon.ico"]) {
      expect(readFileSync(path.join(productBuild(), "public", file))).toEqual(readFileSync(path.join(ROOT, PRODUCT_APP, "public", file)));
    }
  });

  it("include the favicon the document links", async () => {
    const served = await startProductApp();
    try {
      const html = await (await fetch(`${served.url}/`)).text();
      expect(html).toContain('<link rel="icon" href="/favicon.ico"/>');
      const icon = await fetch(`${served.url}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/vnd.microsoft.icon");
    } finally {
      await served.close();
    }
  });
});
