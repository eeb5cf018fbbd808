import http from 'node:http';
import { openStreams, type Stream } from './streams';

/**
 * A child process of `run.ts` holding viewers' streams that take no part in the measurement (a
 * process may keep only 20,000 files open here: the server's streams need the parent's room).
 * Messages: `{open: [{url, cookie}]}` → `{opened, refusals}`; `{count: true}` → how many of its
 * streams received a play (none should: they are strangers to the player); `{close: true}`.
 */
type Message = { open: { url: string; cookie: string }[] } | { count: true } | { close: true };

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const streams: Stream[] = [];

process.on('message', (message: Message) => {
  void (async () => {
    if ('open' in message) {
      const refusals: string[] = [];
      try {
        streams.push(...(await openStreams(message.open, agent, refusals)));
        process.send?.({ opened: streams.length, refusals: refusals.length });
      } catch (error) {
        process.send?.({ error: (error as Error).message });
      }
    } else if ('count' in message) {
      process.send?.({ reached: streams.filter((s) => s.arrivals.size > 0).length });
    } else {
      for (const stream of streams) stream.request.destroy();
      agent.destroy();
      process.disconnect();
    }
  })();
});
