/**
 * How long the event loop was blocked by this process's own work. A timer ticks every `tickMs`;
 * a late tick counts as blocked only for as long as the main thread used the CPU meanwhile, so that
 * time the machine's scheduler gave to other processes (a loaded test machine) does not count,
 * while synchronous work on the loop (a decompression, a spin) does.
 */
export interface EventLoopProbe {
  /** The longest block seen, in ms. */
  readonly maxBlockedMs: number;
  /** The latest tick seen, in ms, whatever the cause (for messages). */
  readonly maxLateMs: number;
  stop(): void;
}

type CpuUsage = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;
// The main thread's own CPU where Node has it (23.9 and later): the process's (cpuUsage) also
// counts the thread pool's and the garbage collector's helper threads, busy while the loop is not.
const loopCpuUsage: CpuUsage = (process as { threadCpuUsage?: CpuUsage }).threadCpuUsage?.bind(process) ?? process.cpuUsage.bind(process);

export function probeEventLoop(tickMs = 10): EventLoopProbe {
  let last = performance.now();
  let lastCpu = loopCpuUsage();
  const probe = { maxBlockedMs: 0, maxLateMs: 0, stop: () => clearInterval(timer) };
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = loopCpuUsage(lastCpu);
    const late = now - last - tickMs;
    const busy = (cpu.user + cpu.system) / 1000;
    probe.maxLateMs = Math.max(probe.maxLateMs, late);
    probe.maxBlockedMs = Math.max(probe.maxBlockedMs, Math.min(late, busy));
    last = now;
    lastCpu = loopCpuUsage();
  }, tickMs);
  return probe;
}
