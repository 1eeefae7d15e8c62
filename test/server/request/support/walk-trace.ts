import type { Session } from "node:inspector/promises";

/*
 * What one walk through src/server/ does, read from V8 through the inspector: the files it runs a
 * function of (precise coverage) and its re-entries (logpoints at the entry of every function
 * that ran, each recording its file and its caller's).
 */

const SERVER = "/src/server/";

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface ScriptCoverage {
  scriptId: string;
  url: string;
  functions: { functionName: string; ranges: Range[] }[];
}

/** One call into a function of src/server/: its file, whether it is a module-level function, and its caller's file. */
interface Entry {
  file: string;
  name: string;
  moduleLevel: boolean;
  caller: string | undefined;
  /** The src/server/ files of the frames below the caller's (async ones included). */
  below: string[];
}

export interface WalkMeasure {
  status: number;
  /** The src/server/ files at least one of whose functions ran, sorted. */
  files: string[];
  /** "caller -> file function" for each call into a module-level function of a file the walk had left for another one. */
  reentries: string[];
  /** "caller -> file function" for each call into a module-level function of a file the walk is still inside (it called, directly or not, the caller). */
  callbacks: string[];
  /** "caller -> file function" for every call from one src/server/ file into another, closures and methods included. */
  crossings: string[];
}

const fileOf = (url: string): string | undefined => {
  const at = url.indexOf(SERVER);
  return at < 0 ? undefined : url.slice(at + SERVER.length).replace(/[?:].*$/, "");
};

const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * Re-entries by decision 0050's rule, measured: a call from one src/server/ file into a
 * module-level function (a `function` or a top-level `const … = (…) =>`) of another file that the
 * walk had already left for another one (entered some third file since). Returning to a caller,
 * a caller calling the same file twice in a row, promise continuations, callbacks handed over,
 * methods of objects already built and the module runner's export getters do not count.
 */
export class WalkTracer {
  readonly #session: Session;
  #entries: Entry[] | undefined;
  readonly #labels: { file: string; name: string; moduleLevel: boolean }[] = [];

  constructor(session: Session) {
    this.#session = session;
    (globalThis as { __outpostWalkEntry?: unknown }).__outpostWalkEntry = (label: number, stack: string) => this.#record(label, stack);
  }

  async start(): Promise<void> {
    // Deep enough that a call back into a file far down the stack is seen.
    Error.stackTraceLimit = 100;
    this.#session.connect();
    await this.#session.post("Profiler.enable");
    await this.#session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await this.#session.post("Debugger.enable");
  }

  async stop(): Promise<void> {
    await this.#session.post("Debugger.disable");
    await this.#session.post("Profiler.stopPreciseCoverage");
    this.#session.disconnect();
  }

  /** Runs `request` once unmeasured (lazy modules load), once under coverage, once traced; `before` runs ahead of each. */
  async measure(request: () => Promise<{ status: number }>, before: () => unknown = () => {}): Promise<WalkMeasure> {
    await before();
    await request();
    await before();
    await this.#session.post("Profiler.takePreciseCoverage");
    const { status } = await request();
    await settled();
    const { result } = (await this.#session.post("Profiler.takePreciseCoverage")) as { result: ScriptCoverage[] };
    const ran = result.filter(({ url, functions }) => fileOf(url) !== undefined && functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0));
    const files = ran.map(({ url }) => fileOf(url) as string).sort();

    const breakpoints = await this.#arm(ran);
    await before();
    this.#entries = [];
    await request();
    await settled();
    const entries = this.#entries;
    this.#entries = undefined;
    // WALK_TRACE=1 prints every call the walk made, to see what moved a count.
    if (process.env.WALK_TRACE) console.log(entries.map((e) => `${e.caller ?? '-'} -> ${e.file} ${e.name}${e.moduleLevel ? ' (module)' : ''}`).join('\n'));
    for (const breakpointId of breakpoints) await this.#session.post("Debugger.removeBreakpoint", { breakpointId });
    return { status, files, ...reentriesOf(entries) };
  }

  #record(label: number, stack: string): void {
    if (!this.#entries) return;
    const { file, name, moduleLevel } = this.#labels[label] as { file: string; name: string; moduleLevel: boolean };
    // Frames: the message, the condition's own eval frame(s), the entered function, its caller.
    const frames = stack.split("\n").slice(1).filter((frame) => !frame.includes("eval at") && !frame.includes("<anonymous>"));
    const files = frames.slice(1).map((frame) => fileOf(frame.replace(/:\d+:\d+\)?$/, "")));
    this.#entries.push({ file, name, moduleLevel, caller: files[0], below: files.slice(1).filter((below) => below !== undefined) });
  }

  /** A logpoint at the entry of every function that ran in `scripts`: it records and never pauses. */
  async #arm(scripts: ScriptCoverage[]): Promise<string[]> {
    const ids: string[] = [];
    for (const { scriptId, url, functions } of scripts) {
      const { scriptSource: source } = (await this.#session.post("Debugger.getScriptSource", { scriptId })) as { scriptSource: string };
      const file = fileOf(url) as string;
      for (const { functionName: name, ranges } of functions) {
        const range = ranges[0] as Range;
        if (range.count === 0 || range.startOffset === 0 || isExportGetter(source, range)) continue;
        const label = this.#labels.push({ file, name, moduleLevel: isModuleLevel(source, range) }) - 1;
        const start = position(source, range.startOffset);
        const end = position(source, range.endOffset);
        const { locations } = (await this.#session.post("Debugger.getPossibleBreakpoints", {
          start: { scriptId, ...start },
          end: { scriptId, ...end },
          restrictToFunction: true,
        })) as { locations: { lineNumber: number; columnNumber: number }[] };
        const first = locations[0];
        if (!first) continue;
        const { breakpointId } = (await this.#session.post("Debugger.setBreakpoint", {
          location: { scriptId, ...first },
          condition: `globalThis.__outpostWalkEntry?.(${label}, new Error().stack), false`,
        })) as { breakpointId: string };
        ids.push(breakpointId);
      }
    }
    return ids;
  }
}

function position(source: string, offset: number): { lineNumber: number; columnNumber: number } {
  let lineNumber = 0;
  let lineStart = 0;
  for (let at = source.indexOf("\n"); at >= 0 && at < offset; at = source.indexOf("\n", at + 1)) {
    lineNumber++;
    lineStart = at + 1;
  }
  return { lineNumber, columnNumber: offset - lineStart };
}

/** A `function` or a `const … = (…) =>` of the module itself: what its line holds before the function is only that declaration, from the line's start. */
function isModuleLevel(source: string, range: Range): boolean {
  const lineStart = source.lastIndexOf("\n", range.startOffset - 1) + 1;
  const declaration = source.slice(lineStart, range.startOffset);
  if (declaration === "" || /^(async\s+)?$/.test(declaration)) return /^(async\s+)?function\b/.test(source.slice(range.startOffset, range.startOffset + 20));
  return /^(const|let)\s+[\w$]+(\s*:[^=]*)?\s*=\s*(async\s*)?$/.test(declaration);
}

/** The module runner's getter for an export (`__vite_ssr_exportName__("name", () => name)`): reading an imported binding runs it, which is no call into the file. */
function isExportGetter(source: string, range: Range): boolean {
  const lineStart = source.lastIndexOf("\n", range.startOffset - 1) + 1;
  const lineEnd = source.indexOf("\n", range.startOffset);
  return /__vite_ssr_export(s__|Name__)/.test(source.slice(lineStart, lineEnd < 0 ? undefined : lineEnd));
}

function reentriesOf(entries: Entry[]): { reentries: string[]; callbacks: string[]; crossings: string[] } {
  // Where each file was last entered, by index in `entries`.
  const lastEntered = new Map<string, number>();
  const reentries: string[] = [];
  const callbacks: string[] = [];
  const crossings: string[] = [];
  entries.forEach(({ file, name, moduleLevel, caller, below }, index) => {
    const crossing = caller !== undefined && caller !== file && moduleLevel;
    const last = lastEntered.get(file);
    // Left for another one: since then the walk entered a file other than this one and the caller.
    const left = last !== undefined && entries.slice(last + 1, index).some((between) => between.file !== file && between.file !== caller);
    if (crossing && left) reentries.push(`${caller} -> ${file} ${name}`);
    if (crossing && below.includes(file)) callbacks.push(`${caller} -> ${file} ${name}`);
    if (caller !== undefined && caller !== file) crossings.push(`${caller} -> ${file} ${name}`);
    lastEntered.set(file, index);
  });
  return { reentries, callbacks, crossings };
}
