// Sentry debug ids in the browser bundle and its source maps, so Sentry can symbolicate
// minified stack frames without the maps ever being served. With SENTRY_AUTH_TOKEN (plus
// SENTRY_ORG and SENTRY_PROJECT) the maps are uploaded for the release and then deleted from
// the build; without it nothing leaves the machine and one info line says so.
import { sentryEsbuildPlugin } from "@sentry/bundler-plugins/esbuild";

/**
 * Debug ids make the maps match without a release; with SENTRY_RELEASE set the upload is
 * also attached to that release.
 * @param {{ release: string | undefined, outDir: string }} options
 */
export function sentrySourceMapsPlugin({ release, outDir }) {
  const token = process.env.SENTRY_AUTH_TOKEN;
  if (token && !(process.env.SENTRY_ORG && process.env.SENTRY_PROJECT)) {
    throw new Error("SENTRY_AUTH_TOKEN is set, so SENTRY_ORG and SENTRY_PROJECT are required to upload source maps");
  }
  if (!token) console.info("sentry: SENTRY_AUTH_TOKEN not set, injecting debug ids without uploading source maps");
  return sentryEsbuildPlugin({
    org: process.env.SENTRY_ORG,
    project: process.env.SENTRY_PROJECT,
    authToken: token,
    telemetry: false,
    silent: !token,
    release: {
      name: release,
      // The server injects the release at request time (runtime config); no build-time global.
      inject: false,
      create: Boolean(token && release),
      finalize: Boolean(token && release),
      setCommits: false,
    },
    sourcemaps: {
      disable: token ? false : "disable-upload",
      assets: [`${outDir}/client/**`],
      // Only after a real upload: the plugin would delete them even when it skipped it.
      filesToDeleteAfterUpload: token ? [`${outDir}/client/**/*.map`] : undefined,
    },
  });
}
