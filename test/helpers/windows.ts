// Quotas and limiters count in fixed windows aligned to the wall clock (the hour for key quotas, the
// minute for the abuse limiters), so a test that fills a window and crosses its end would see the
// count start afresh part way. These keep such tests inside one window.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the next window when fewer than `marginSeconds` of the current one remain. For hourly
 * windows: the wait happens in at most 20 s of each hour, so give the hook a timeout above the margin.
 */
export async function clearOfWindowEnd(windowSeconds: number, marginSeconds: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginSeconds * 1000) await sleep(left + 50);
}

/**
 * Runs `observe` from `addresses[0]`, and once more from `addresses[1]` if the run crossed the end of
 * a `windowSeconds` window; for runs far shorter than the window, two in a row cannot both cross one.
 */
export async function inOneWindow<T>(
  windowSeconds: number,
  addresses: [string, string],
  observe: (address: string) => Promise<T>,
): Promise<T> {
  const windowIndex = () => Math.floor(Date.now() / (windowSeconds * 1000));
  const started = windowIndex();
  const seen = await observe(addresses[0]);
  return windowIndex() === started ? seen : observe(addresses[1]);
}
