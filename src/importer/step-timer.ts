/**
 * Wall and CPU seconds of each step of an import (`wikiquery import --timings`): the phases after pass 2
 * are a serial tail whose cost is easy to misjudge from the cumulative times of the log lines. Two CPU
 * figures: this thread's (what the step costs the serial path; Linux only, 10 ms ticks) and the whole
 * process's (every thread: the analysis workers, a background index build).
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface StepTime {
  step: string;
  wall: number;
  /** this thread's CPU seconds (NaN where the system does not tell) */
  thread: number;
  cpu: number;
  /** the process's peak resident set size so far, MiB (where the import's peak is reached) */
  peakRss: number;
}

/** CPU seconds of the calling thread so far (utime + stime of /proc/thread-self/stat), NaN elsewhere */
function threadCpu(): number {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'latin1');
    // the fields after the command name (which may hold spaces) start after its ')'
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux architecture Node runs on */
const TICKS = 100;

export class StepTimer {
  readonly steps: StepTime[] = [];
  private current: string | null = null;
  private wall0 = 0;
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };
  private thread0 = 0;

  /** end the running step (if any) and start `name` */
  start(name: string): void {
    this.end();
    this.current = name;
    this.wall0 = performance.now();
    this.cpu0 = process.cpuUsage();
    this.thread0 = threadCpu();
  }

  end(): void {
    if (this.current === null) return;
    const cpu = process.cpuUsage(this.cpu0);
    this.steps.push({
      step: this.current,
      wall: (performance.now() - this.wall0) / 1000,
      thread: threadCpu() - this.thread0,
      cpu: (cpu.user + cpu.system) / 1e6,
      peakRss: process.resourceUsage().maxRSS / 1024,
    });
    this.current = null;
  }

  /** the steps as aligned lines: step, wall s, this thread's CPU s, the process's CPU s, peak RSS */
  lines(): string[] {
    this.end();
    const width = Math.max(4, ...this.steps.map((s) => s.step.length));
    const total = this.steps.reduce(
      (a, s) => ({
        step: 'total',
        wall: a.wall + s.wall,
        thread: a.thread + s.thread,
        cpu: a.cpu + s.cpu,
        peakRss: Math.max(a.peakRss, s.peakRss),
      }),
      { step: 'total', wall: 0, thread: 0, cpu: 0, peakRss: 0 },
    );
    const num = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(2)).padStart(9);
    const row = (s: StepTime) =>
      `${s.step.padEnd(width)}  ${num(s.wall)}  ${num(s.thread)}  ${num(s.cpu)}  ${Math.round(s.peakRss).toString().padStart(8)}`;
    const head = `${'step'.padEnd(width)}  ${'wall s'.padStart(9)}  ${'thread s'.padStart(9)}  ${'CPU s'.padStart(9)}  ${'peak MB'.padStart(8)}`;
    return [head, ...this.steps.map(row), row(total)];
  }
}
