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

/** Part `part` (from 1) of `parts`: each item whose place is `part` modulo `parts` (neighbours, often alike in cost, go to different parts), the ones that mostly wait first, so that they wait beside the rest. */
export function dealt<T>(items: readonly T[], part: number, parts: number, waiting: readonly T[]): T[] {
  const mine = items.filter((_, i) => i % parts === part - 1);
  return [...mine.filter((item) => waiting.includes(item)), ...mine.filter((item) => !waiting.includes(item))];
}
