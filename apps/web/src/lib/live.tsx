import type { LiveEventName, LiveNowPlaying } from '@earshot/contract/live';
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { LiveStream, type LiveEventData, type LiveStatus } from './liveStream';

const LiveContext = createContext<LiveStream | null>(null);

/** Holds the page's one live stream; it opens only while `useLiveConnection(true)` is mounted. */
export function LiveStreamProvider({ children }: { children: ReactNode }) {
  const [stream] = useState(() => new LiveStream());
  return <LiveContext.Provider value={stream}>{children}</LiveContext.Provider>;
}

function useLiveStream(): LiveStream {
  const stream = useContext(LiveContext);
  if (!stream) throw new Error('useLiveStream needs a LiveStreamProvider');
  return stream;
}

/** Keeps the stream open while `enabled` (a signed-in viewer). */
export function useLiveConnection(enabled: boolean): void {
  const stream = useLiveStream();
  useEffect(() => {
    if (!enabled) return undefined;
    stream.start();
    return stream.stop;
  }, [enabled, stream]);
}

/** Calls `handler` with each `name` event (the latest handler, without resubscribing). */
export function useLiveEvent<Name extends LiveEventName>(
  name: Name,
  handler: (data: LiveEventData[Name]) => void,
): void {
  const stream = useLiveStream();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => stream.on(name, (data) => latest.current(data)), [stream, name]);
}

export function useLiveStatus(): LiveStatus {
  const stream = useLiveStream();
  return useSyncExternalStore(stream.subscribe, stream.getStatus);
}

/** Friends playing right now, as the stream last told. */
export function useNowPlaying(): readonly LiveNowPlaying[] {
  const stream = useLiveStream();
  return useSyncExternalStore(stream.subscribe, stream.getNowPlaying);
}
