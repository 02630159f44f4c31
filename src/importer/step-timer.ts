/**
 * Wall and CPU seconds of each step of an import (`wikiquery import --timings`): the phases after pass 2
 * are a serial tail whose cost is easy to misjudge from the cumulative times of the log lines. CPU is
 * the whole process's (every thread): beside the wall time it shows what ran in parallel.
 */
import { performance } from 'node:perf_hooks';

export interface StepTime {
  step: string;
  wall: number;
  cpu: number;
}

export class StepTimer {
  readonly steps: StepTime[] = [];
  private current: string | null = null;
  private wall0 = 0;
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };

  /** end the running step (if any) and start `name` */
  start(name: string): void {
    this.end();
    this.current = name;
    this.wall0 = performance.now();
    this.cpu0 = process.cpuUsage();
  }

  end(): void {
    if (this.current === null) return;
    const cpu = process.cpuUsage(this.cpu0);
    this.steps.push({ step: this.current, wall: (performance.now() - this.wall0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 });
    this.current = null;
  }

  /** the steps as aligned lines: step, wall s, CPU s */
  lines(): string[] {
    this.end();
    const width = Math.max(4, ...this.steps.map((s) => s.step.length));
    const total = this.steps.reduce((a, s) => ({ wall: a.wall + s.wall, cpu: a.cpu + s.cpu }), { wall: 0, cpu: 0 });
    const row = (step: string, wall: number, cpu: number) => `${step.padEnd(width)}  ${wall.toFixed(2).padStart(8)}  ${cpu.toFixed(2).padStart(8)}`;
    return [`${'step'.padEnd(width)}  ${'wall s'.padStart(8)}  ${'CPU s'.padStart(8)}`, ...this.steps.map((s) => row(s.step, s.wall, s.cpu)), row('total', total.wall, total.cpu)];
  }
}
