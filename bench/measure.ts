import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';

export interface Measurement {
  label: string;
  iterations: number;
  opsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** Runs `task` `iterations` times one after another (after a warm-up) and reports latencies. */
export async function measure(
  label: string,
  iterations: number,
  task: () => Promise<unknown>,
): Promise<Measurement> {
  for (let i = 0; i < Math.min(100, iterations / 10); i++) await task();
  const samples = new Float64Array(iterations);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await task();
    samples[i] = performance.now() - t0;
  }
  const elapsed = performance.now() - started;
  samples.sort();
  const at = (q: number) => Number(samples[Math.min(iterations - 1, Math.floor(q * iterations))].toFixed(3));
  return {
    label,
    iterations,
    opsPerSecond: Math.round((iterations / elapsed) * 1000),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
  };
}

export function machine(): { cpus: number; cpuModel: string; node: string; memoryGiB: number } {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}
