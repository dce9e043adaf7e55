// How long work on other threads lets the event loop go without running: what the worker-thread tests measure.

/** The longest the event loop went without a 5 ms timer tick while `work` ran, and how long it ran (ms). */
export async function longestTickGap(work: () => Promise<unknown>): Promise<{ gap: number; duration: number }> {
  const start = performance.now()
  const ticks = [start]
  const timer = setInterval(() => ticks.push(performance.now()), 5)
  await work()
  clearInterval(timer)
  ticks.push(performance.now())
  return { gap: Math.max(...ticks.slice(1).map((t, i) => t - ticks[i]!)), duration: performance.now() - start }
}
