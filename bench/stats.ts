// Summary statistics of latency samples: median and p95 by the nearest-rank method.

export interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

/** The nearest-rank percentile `p` (0–100) of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length > 0 ? sum / sorted.length : Number.NaN,
  };
}

/** Rounds for the report: 3 significant decimals below 10, 1 decimal above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  return Math.abs(value) < 10 ? Math.round(value * 1000) / 1000 : Math.round(value * 10) / 10;
}
