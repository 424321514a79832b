/** Runs the tasks given to it at most `n` at a time, the rest in turn as slots free up. */
export function limit(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: Array<() => void> = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => queue.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = queue.shift();
      if (next)
        next(); // the slot passes straight on
      else running--;
    }
  };
}
