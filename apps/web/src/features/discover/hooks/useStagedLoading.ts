import { useEffect, useState } from 'react';
import {
  DISCOVER_FIRST_SECTION_DELAY_MS,
  DISCOVER_NEXT_SECTION_DELAY_MS,
} from '../../../lib/constants';

/**
 * Discover loads in stages (docs/product.md, "Discover in stages"): the first section
 * starts 500 ms after the page opens, each next one 300 ms after the previous one finished,
 * with or without success. `started` is how many sections may load; the page reports back
 * through `useStageTimers` which of them finished.
 */
export function useStagedLoading() {
  const [started, setStarted] = useState(0);
  return { started, setStarted };
}

/** Lets the next section start once its time has come; `settled[i]`: section i finished. */
export function useStageTimers(
  { started, setStarted }: ReturnType<typeof useStagedLoading>,
  settled: readonly boolean[],
) {
  const previousSettled = started > 0 && settled[started - 1] === true;
  const count = settled.length;
  useEffect(() => {
    if (started >= count || (started > 0 && !previousSettled)) return;
    const delay = started === 0 ? DISCOVER_FIRST_SECTION_DELAY_MS : DISCOVER_NEXT_SECTION_DELAY_MS;
    const timer = setTimeout(() => setStarted(started + 1), delay);
    return () => clearTimeout(timer);
  }, [started, previousSettled, count, setStarted]);
}
