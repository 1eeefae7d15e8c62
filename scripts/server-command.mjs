// The node arguments that run a build's server as production does. The Dockerfile's CMD
// (checked against this by scripts/image/lint-dockerfile.mjs), `npm start`, the image's
// compile-cache warm-up, the bench and the tests all take them from here, so what is measured
// and tested is what runs.
//
// A young generation of up to 32 MiB a semi-space (V8's default is 16): a page render
// allocates enough that, under load with many event streams open, renders outlived the
// default's scavenges and were promoted, so every scavenge copied more and the old generation
// filled with garbage (docs/decisions/0114-young-generation-size.md).
export const SERVER_NODE_FLAGS = Object.freeze(["--max-semi-space-size=32"]);

/** `buildDir`: "./dist" (the default, relative to the checkout) or an absolute path. */
export const serverArgs = (buildDir = "./dist") => [
  ...SERVER_NODE_FLAGS,
  "--import",
  `${buildDir}/server/instrument.js`,
  `${buildDir}/server/index.js`,
];
