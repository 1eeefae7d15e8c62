/**
 * A write to a stdout or stderr whose reader has gone fails with EPIPE, which Node emits as an
 * 'error' on `process.stdout`/`process.stderr`: with no listener the process crashes, mid-drain
 * if that is when a warning or a stray console line is written. What was written had nowhere
 * to go, so EPIPE is dropped; any other error still ends the process as before.
 */
export function ignoreClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
}
