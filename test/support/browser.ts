import { CHROMIUM_PATH, hasChromium } from "../../scripts/bench/lib/chromium.mjs";

// Debian's Chromium with the flags this network needs and a fresh profile; shared with the
// benchmarks, which drive it too.
export { CHROMIUM_PATH, hasChromium, launchChromium } from "../../scripts/bench/lib/chromium.mjs";

if (!hasChromium) {
  console.warn(
    `Browser tests skipped: no Chromium at ${CHROMIUM_PATH}. Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}
