import { useEffect, useState } from 'react';
import { IMPORT_WAIT_TICK_MS } from '../../../lib/constants';

/** Each tick takes its own length off the wait: 60 s each minute (docs/product.md §4 and §9). */
const WAIT_STEP_SECONDS = IMPORT_WAIT_TICK_MS / 1_000;

interface Countdown {
  /** When the server's figure arrived (a query's `dataUpdatedAt`). */
  receivedAt: number;
  serverSeconds: number;
  remainingSeconds: number;
}

/**
 * The seconds left before another import may start: the server's `full_history_sync_wait`,
 * counted down by 60 s each minute and starting over from every new answer of the server.
 */
export function useImportWaitCountdown(serverSeconds: number, receivedAt: number): number {
  const [countdown, setCountdown] = useState<Countdown>({
    receivedAt,
    serverSeconds,
    remainingSeconds: serverSeconds,
  });
  let current = countdown;
  if (countdown.receivedAt !== receivedAt || countdown.serverSeconds !== serverSeconds) {
    current = { receivedAt, serverSeconds, remainingSeconds: serverSeconds };
    setCountdown(current);
  }

  const counting = current.remainingSeconds > 0;
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => {
      setCountdown((previous) => ({
        ...previous,
        remainingSeconds: Math.max(0, previous.remainingSeconds - WAIT_STEP_SECONDS),
      }));
    }, IMPORT_WAIT_TICK_MS);
    return () => clearInterval(timer);
  }, [counting, receivedAt]);

  return current.remainingSeconds;
}
