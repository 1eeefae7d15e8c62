// Watches the folders holding the builds' own source files. esbuild's watch mode polls and can
// take up to ~2 s to notice a change, and its two contexts notice it apart (two restarts);
// inotify through fs.watch reports it at once, to one place. Not `recursive: true`: on Linux
// that is Node's userland emulation, with known races and crashes on deletion.
import { readdirSync, statSync, watch } from "node:fs";
import path from "node:path";

/**
 * Calls `onChange(files, since)` once per burst of events: `files` are the changed paths
 * relative to `root` ("/"-separated, as in esbuild's metafiles), `since` the performance.now()
 * of the burst's first event. Bursts, because one save is often several events (truncate and
 * write, or write a temporary file and rename it).
 */
export function watchFolders(root, onChange, { quietMs = 10 } = {}) {
  const watchers = new Map();
  let inputFolders = new Set();
  // Folders created since the last good build: a file there may be what a failed import wants.
  const newFolders = new Set();
  let changed = new Set();
  let since = 0;
  let timer = null;

  const flush = () => {
    timer = null;
    const files = changed;
    changed = new Set();
    onChange(files, since);
  };
  const onEvent = (folder, filename) => {
    if (changed.size === 0 && timer === null) since = performance.now();
    // Linux always names the file; elsewhere an unnamed event stands for the whole folder.
    const file = `${folder}/${filename ?? "*"}`;
    changed.add(file);
    if (filename && isFolder(path.join(root, file))) follow(file);
    clearTimeout(timer);
    timer = setTimeout(flush, quietMs);
  };
  const open = (folder) => {
    try {
      const watcher = watch(path.join(root, folder), (_event, filename) => onEvent(folder, filename));
      watcher.on("error", () => close(folder));
      watchers.set(folder, watcher);
    } catch {} // gone already; the next build's inputs say what to watch
  };
  const close = (folder) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  // A new folder, with whatever was created in it before its watch began (mkdir -p, then write).
  const follow = (folder) => {
    newFolders.add(folder);
    if (watchers.has(folder)) return;
    open(folder);
    try {
      for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
        if (entry.isDirectory()) follow(`${folder}/${entry.name}`);
        else changed.add(`${folder}/${entry.name}`);
      }
    } catch {} // removed again
  };

  return {
    /** Watches the folders of these files; `keepNew` while a build is broken. */
    update(files, { keepNew = false } = {}) {
      inputFolders = new Set(files.map((file) => path.posix.dirname(file)));
      if (!keepNew) newFolders.clear();
      for (const folder of watchers.keys()) {
        if (!inputFolders.has(folder) && !newFolders.has(folder)) close(folder);
      }
      for (const folder of inputFolders) if (!watchers.has(folder)) open(folder);
    },
    close() {
      clearTimeout(timer);
      for (const folder of [...watchers.keys()]) close(folder);
    },
  };
}

function isFolder(file) {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
