import { useEffect, useEffectEvent, useRef } from 'react';
import { INFINITE_SCROLL_MARGIN_PX } from '../../lib/constants';

interface InfiniteScrollSentinelProps {
  /** Whether reaching the end should load more (there is more, and nothing is loading). */
  active: boolean;
  onReached: () => void;
}

/**
 * Put after a list: calls `onReached` when it comes within 300 px of the viewport while
 * `active`. It looks again each time it becomes active, so a page that still leaves the end
 * in view loads the next one.
 */
export function InfiniteScrollSentinel({ active, onReached }: InfiniteScrollSentinelProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const reached = useEffectEvent(onReached);

  useEffect(() => {
    const element = sentinel.current;
    if (!active || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) reached();
      },
      { rootMargin: `${INFINITE_SCROLL_MARGIN_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [active]);

  return <div ref={sentinel} className="infinite-scroll-sentinel" aria-hidden="true" />;
}
