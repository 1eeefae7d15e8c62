import type { Writable } from "node:stream";
import { DEFERRED_GLOBAL } from "../../shared/deferred/deferred-data";
import { serializeForScript } from "../../shared/document/serialize";
import type { StartedRender } from "./stream-document";
import type { DeferredLines } from "./deferred/deferred-lines";

/**
 * The page's render with each deferred value's line added to the response, in an inline script
 * with the page's nonce, as the value settles. React writes whole instructions synchronously and
 * marks the end of each flush, so a line goes out between two flushes (or at once after the shell,
 * when React is idle) and never inside React's markup; one after React's last flush follows
 * `</html>`, which parsers move into the body. The response ends once React is done and
 * every line is out, or once the lines' time limit abandons the values still pending.
 */
export function withDeferredScripts(render: StartedRender, lines: DeferredLines, nonce: string): StartedRender {
  const open = `<script nonce="${nonce}">(self.${DEFERRED_GLOBAL}||=[]).push(`;
  return {
    pipe: (destination) => {
      let shellOut = false;
      let reactDone = false;
      let linesDone = false;
      let queued = "";
      const writeQueued = () => {
        if (!queued) return;
        destination.write(queued);
        queued = "";
      };
      const endIfDone = () => {
        if (!reactDone || !linesDone) return;
        writeQueued();
        destination.end();
      };
      lines.follow(
        (line) => {
          queued += `${open}${serializeForScript(line)})</script>`;
          if (shellOut) writeQueued();
        },
        () => {
          linesDone = true;
          endIfDone();
        },
      );
      // React uses only these of its destination.
      const between = {
        write: (chunk: Uint8Array | string) => destination.write(chunk),
        flush: () => {
          shellOut = true;
          writeQueued();
        },
        end: () => {
          reactDone = true;
          endIfDone();
        },
        on: (event: string, listener: (...args: unknown[]) => void) => {
          destination.on(event, listener);
          return between;
        },
        destroy: (error?: Error) => destination.destroy(error),
      };
      render.pipe(between as unknown as Writable);
    },
    close: (finished) => {
      lines.stop();
      render.close(finished);
    },
  };
}
