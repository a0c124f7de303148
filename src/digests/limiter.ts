/** Runs a job when fewer than the limit are running, else once one of them ends. */
export type Limiter = <T>(job: () => Promise<T>) => Promise<T>;

/** Bounds work that must not all start at once (analytics calls, posts). */
export function limiter(limit: number): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
