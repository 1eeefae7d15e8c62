/**
 * Development only. The dev server restarts on every rebuild; this stream reconnects to the
 * new process, which announces a new boot id, and the page reloads itself.
 */
export const DEV_RELOAD_PATH = "/__dev/reload";

export function watchForReload(): void {
  let bootId: string | null = null;
  const events = new EventSource(DEV_RELOAD_PATH);
  events.addEventListener("boot", (event) => {
    const next = (event as MessageEvent<string>).data;
    if (bootId !== null && next !== bootId) window.location.reload();
    bootId = next;
  });
}
