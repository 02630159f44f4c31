/**
 * The terminal progress bar of an import (only when asked for, i.e. on a TTY): one bar per phase,
 * pass 1 in bytes of the dump read, pass 2 in pages analysed.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  phase(label: string, total: number, unit: 'MB' | 'pages'): void;
  update(value: number): void;
  stop(): void;
}

const NONE: Progress = { phase() {}, update() {}, stop() {} };

export function createProgress(enabled: boolean, stream: NodeJS.WritableStream = process.stdout): Progress {
  if (!enabled) return NONE;
  let bar: cliProgress.SingleBar | null = null;
  let scale = 1;
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return {
    phase(label, total, unit) {
      stop();
      scale = unit === 'MB' ? 1024 * 1024 : 1;
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${label.padEnd(20)} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted} | ETA {eta_formatted}`,
          hideCursor: true,
          fps: 5,
          formatValue: (v, _o, type) =>
            type === 'value' || type === 'total' ? (unit === 'MB' ? v.toFixed(1) : String(Math.round(v))) : String(v),
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total / scale, 0);
    },
    update(value) {
      bar?.update(value / scale);
    },
    stop,
  };
}
