import { errorBody } from '@earshot/contract/errors';
import { signedInUser } from '../http/auth';
import type { RoutePlugin } from './context';

export const liveRoutes: RoutePlugin = async (app, { auth, live, nowPlaying }) => {
  app.get(
    '/api/live',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['live'],
        summary:
          'Live activity of the viewer and friends (text/event-stream): play, like, now-playing, friendship',
        description:
          'Events `ready`, `play` (ActivityItem), `like` (LiveLike), `now-playing` (LiveNowPlaying), `friendship` (LiveFriendship). Send `Last-Event-ID` (or `?last_event_id=`) to replay the last 10 minutes.',
        response: { 401: errorBody },
      },
    },
    async (request, reply) => {
      const viewer = signedInUser(request);
      // Read here, after authorization: the hub takes only a plain event id (else `missed`).
      // The browser sends the header on its own reconnects; a page reopening the stream after a
      // backoff passes it in the query (EventSource cannot set headers).
      const query = request.query as Record<string, unknown>;
      const lastEventId = request.headers['last-event-id'] ?? query.last_event_id;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Nginx and the like would hold the events back in a buffer.
        'x-accel-buffering': 'no',
      });
      raw.flushHeaders();
      try {
        await live.open(viewer.id, raw, typeof lastEventId === 'string' ? lastEventId : undefined);
        // A new watcher: what their friends play is asked now, not at the next tick.
        void nowPlaying.kick();
      } catch (error) {
        request.log.error({ err: error }, 'live stream not opened');
        raw.end('retry: 5000\n\n');
      }
    },
  );
};
