import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopStalls {
  /** Event-loop delay (wall clock), perf_hooks' monitor: p99 and max, ms. */
  delayP99Ms: number;
  delayMaxMs: number;
  /**
   * The longest stretch the main thread ran without coming back to its event loop, in CPU time (ms): the
   * delay the process itself caused, without the time the OS gave other processes (a busy machine). Null
   * where the kernel gives no per-thread schedstat.
   */
  busyMaxMs: number | null;
}

const SCHEDSTAT = '/proc/thread-self/schedstat';

/**
 * Watches this thread's event loop until `stop()`: perf_hooks' delay monitor, plus a 2 ms timer that reads
 * the thread's CPU time (Linux schedstat: nanoseconds on a CPU) at every turn, so that a stall of the
 * server's own making (JSON.parse of a large file) is told apart from a machine that did not schedule it.
 */
export function watchLoopStalls(): { stop(): LoopStalls } {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const fd = existsSync(SCHEDSTAT) ? openSync(SCHEDSTAT, 'r') : null;
  const buf = Buffer.alloc(128);
  const cpuNs = (): number => {
    if (fd === null) return 0;
    const n = readSync(fd, buf, 0, buf.length, 0);
    return Number(buf.toString('latin1', 0, n).split(' ')[0]);
  };
  let last = cpuNs();
  let busyMax = 0;
  const timer = setInterval(() => {
    const now = cpuNs();
    busyMax = Math.max(busyMax, now - last);
    last = now;
  }, 2);
  return {
    stop() {
      clearInterval(timer);
      busyMax = Math.max(busyMax, cpuNs() - last);
      delay.disable();
      if (fd !== null) closeSync(fd);
      return {
        delayP99Ms: delay.percentile(99) / 1e6,
        delayMaxMs: delay.max / 1e6,
        busyMaxMs: fd === null ? null : busyMax / 1e6,
      };
    },
  };
}
