// The node arguments that run a build's server as production does. The Dockerfile's CMD
// (checked against this by scripts/image/lint-dockerfile.mjs), `npm start`, the image's
// compile-cache warm-up, the bench and the tests all take them from here, so what is measured
// and tested is what runs.
//
// A young generation of 32 MiB a semi-space (V8's default is 16 on Node 20, 64 on Node 24):
// beside many open event streams, V8 pretenured the page path's allocation sites and every
// render's garbage went to the old generation; with 32 that happened less often
// (docs/decisions/0114-young-generation-size.md, with what it does not fix).
export const SERVER_NODE_FLAGS = Object.freeze(["--max-semi-space-size=32"]);

/**
 * `buildDir`: "./dist" (the default, relative to the checkout) or an absolute path; `moreFlags`
 * (a bench's or a test's) come after ours, so one that names the same V8 flag wins.
 */
export const serverArgs = (buildDir = "./dist", moreFlags = []) => [
  ...SERVER_NODE_FLAGS,
  ...moreFlags,
  "--import",
  `${buildDir}/server/instrument.js`,
  `${buildDir}/server/index.js`,
];
