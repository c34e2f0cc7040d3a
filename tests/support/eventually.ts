/**
 * Polls until the probe answers something truthy, with a pause between polls and a deadline.
 * Why: a loop without a pause starves the timers the portal's own queue runs on, and a loop
 * without a deadline outlives its test's timeout and keeps allocating until the worker dies
 * (CI once ran out of heap that way). On the deadline it throws with what the caller describes.
 */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  options: { within?: number; every?: number; what: string | (() => Promise<string> | string) },
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + (options.within ?? 30_000);
  for (;;) {
    const answer = await probe();
    if (answer) return answer as Exclude<T, false | null | undefined | 0 | ''>;
    if (Date.now() > deadline) {
      const what = typeof options.what === 'string' ? options.what : await options.what();
      throw new Error(`not within ${options.within ?? 30_000} ms: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.every ?? 50));
  }
}
