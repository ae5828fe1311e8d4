import { useCallback, useState } from 'react';

/** Where the maps screen remembers whether it shows the live workers, across reloads. */
export const LIVE_WORKERS_SHOWN_KEY = 'sitewatch.maps.liveWorkers';

function readShown(): boolean {
  try {
    return globalThis.localStorage?.getItem(LIVE_WORKERS_SHOWN_KEY) !== 'off';
  } catch {
    // Storage can be disabled (private mode, cookies off): shown, as by default.
    return true;
  }
}

/** Whether the maps canvas shows the live workers: on unless the user turned it off. */
export function useLiveWorkersShown(): [boolean, (shown: boolean) => void] {
  const [shown, setShown] = useState(readShown);
  const change = useCallback((next: boolean) => {
    setShown(next);
    try {
      globalThis.localStorage?.setItem(LIVE_WORKERS_SHOWN_KEY, next ? 'on' : 'off');
    } catch {
      // Remembered for this page only.
    }
  }, []);
  return [shown, change];
}
