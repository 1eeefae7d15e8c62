import { isReadMethod } from "../http/methods";
import {
  ENTRY_RETRIES,
  ENTRY_RETRY_STEP_MS,
  RELOAD_GUARD_MS,
  RELOAD_ONCE_GLOBAL,
  RELOADED_AT_FIELD,
} from "../../shared/document/recovery";

/**
 * The document's own recovery from a missing script, inline (none of the bundle runs when the
 * entry or one of its static imports fails to load): a failed `<script type=module>` (its error
 * event, seen in the capture phase on window) is inserted again after a short wait, twice, then
 * the document is loaded again, once. It also defines the reload-once global the bundle calls
 * when a chunk hydration needs is missing. Scripts it inserts run under 'strict-dynamic'.
 * docs/decisions/0068-pages-recover-from-missing-scripts.md
 */
function source(reloadable: boolean): string {
  const reload = reloadable
    ? `()=>{let s=h.state||{},t=Date.now();if(t-s.${RELOADED_AT_FIELD}<${RELOAD_GUARD_MS})return!1;h.replaceState(Object.assign({},s,{${RELOADED_AT_FIELD}:t}),"");location.reload();return!0}`
    : "()=>!1";
  return (
    `(()=>{let w=window,d=document,h=history,n=0;w.${RELOAD_ONCE_GLOBAL}=${reload};` +
    `w.addEventListener("error",e=>{let s=e.target;if(s.tagName!="SCRIPT"||s.type!="module")return;` +
    `if(n++<${ENTRY_RETRIES})setTimeout(()=>{let c=d.createElement("script");c.type="module";c.src=s.src;d.head.append(c)},n*${ENTRY_RETRY_STEP_MS});` +
    `else w.${RELOAD_ONCE_GLOBAL}()},!0)})();`
  );
}

const RELOADABLE = source(true);
const NOT_RELOADABLE = source(false);

/** The script for a document answering `method`: only a GET's (or HEAD's) may be loaded again. */
export const recoveryScript = (method: string): string => (isReadMethod(method) ? RELOADABLE : NOT_RELOADABLE);
