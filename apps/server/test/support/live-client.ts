import { EventEmitter } from 'node:events';
import type { LiveSink } from '../../src/services/live';

export interface LiveEvent {
  event: string;
  id: string | undefined;
  data: unknown;
}

/** Server-Sent Events as written, parsed: events, plus `retry:` lines and comments seen. */
export function parseEventStream(text: string): {
  events: LiveEvent[];
  retries: number[];
  comments: number;
} {
  const events: LiveEvent[] = [];
  const retries: number[] = [];
  let comments = 0;
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments++;
      const colon = line.indexOf(':');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
    }
    if (fields.has('retry')) retries.push(Number(fields.get('retry')));
    const data = fields.get('data');
    if (data !== undefined) {
      events.push({
        event: fields.get('event') ?? 'message',
        id: fields.get('id'),
        data: JSON.parse(data),
      });
    }
  }
  return { events, retries, comments };
}

/** A stream's client read over HTTP: what arrived so far. */
export interface LiveClient {
  text(): string;
  events(): LiveEvent[];
  close(): void;
}

/** Opens `GET /api/live` on a listening server and keeps reading what it sends. */
export async function openLive(
  baseUrl: string,
  cookie: string,
  lastEventId?: string,
  search = '',
): Promise<LiveClient & { status: number; contentType: string | null }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/live${search}`, {
    headers: { cookie, ...(lastEventId !== undefined && { 'last-event-id': lastEventId }) },
    signal: controller.signal,
  });
  let text = '';
  const body = response.body;
  if (body) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of body)
          text += decoder.decode(chunk as Uint8Array, { stream: true });
      } catch {
        // Closed by the test.
      }
    })();
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: () => text,
    events: () => parseEventStream(text).events,
    close: () => controller.abort(),
  };
}

/** A sink that keeps what is written, and can play a client that stopped reading. */
export class MemorySink extends EventEmitter implements LiveSink {
  written = '';
  ended = false;
  destroyed = false;
  /** Bytes the client has not read: set it to play a slow client. */
  unread = 0;

  get writableLength(): number {
    return this.unread;
  }

  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }

  end(chunk?: string): void {
    if (chunk) this.written += chunk;
    this.ended = true;
    this.emit('close');
  }

  destroy(): void {
    this.destroyed = true;
  }

  events(): LiveEvent[] {
    return parseEventStream(this.written).events;
  }
}
