import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_B_HOME_TEXT, type RollingDeploy, startRollingDeploy } from "../../support/rolling-deploy";

// The harness the rolling-deploy tests stand on: two builds that really differ, and a balancer that alternates.
describe("rolling-deploy harness", () => {
  let deploy: RollingDeploy;
  beforeAll(async () => {
    deploy = await startRollingDeploy();
  });
  afterAll(async () => {
    await deploy?.close();
  });

  it("builds B with one line changed, so most of the home page's assets re-hash", async () => {
    const [ofA, ofB] = await Promise.all([deploy.assetsOf("a", "/"), deploy.assetsOf("b", "/")]);
    const onlyA = ofA.filter((url) => !ofB.includes(url));
    console.log(`home page: build A needs ${ofA.length} assets, ${onlyA.length} of them differ in build B`);
    expect(deploy.buildA.manifest.buildId).not.toBe(deploy.buildB.manifest.buildId);
    expect(ofA.length).toBeGreaterThan(2);
    expect(onlyA.length).toBeGreaterThan(ofA.length / 2);
    expect(await (await fetch(`${deploy.b.url}/`)).text()).toContain(BUILD_B_HOME_TEXT);
    expect(await (await fetch(`${deploy.a.url}/`)).text()).not.toContain(BUILD_B_HOME_TEXT);
  });

  it("alternates per request between the builds, on one kept-alive connection too", async () => {
    let served = "";
    for (let i = 0; i < 4; i++) {
      const html = await (await fetch(`${deploy.balancer.url}/`)).text();
      served += html.includes(BUILD_B_HOME_TEXT) ? "b" : "a";
    }
    expect(["abab", "baba"]).toContain(served);
  });
});
