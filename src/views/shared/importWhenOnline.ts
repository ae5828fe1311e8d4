const RETRIES_ONLINE = 2;
const RETRY_DELAY_MS = 1000;

function nextOnline(): Promise<void> {
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/**
 * Runs a dynamic import of a screen's chunk, and runs it again instead of failing when the network
 * was away: offline, once the browser is back online (the offline notice says why the screen
 * waits); online, a couple of times after a pause. A chunk that cannot load would otherwise take
 * the whole console down to "Something went wrong".
 */
export async function importWhenOnline<Module>(load: () => Promise<Module>): Promise<Module> {
  for (let failures = 0; ; ) {
    try {
      return await load();
    } catch (error) {
      if (!navigator.onLine) {
        await nextOnline();
        continue;
      }
      failures += 1;
      if (failures > RETRIES_ONLINE) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}
