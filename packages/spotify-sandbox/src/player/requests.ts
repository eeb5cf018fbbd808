import { z } from 'zod';
import type { PlayContext, World } from '../world/model';
import { badRequest, noSuchTrack, PlayerError, restrictionViolated } from './errors';

/** What `PUT /me/player/play` asks for, with its URIs resolved against the world. */
export type PlayRequest =
  | { kind: 'resume'; positionMs?: number }
  | {
      kind: 'start';
      context: PlayContext | null;
      trackIds: readonly string[];
      startAt: number;
      positionMs: number;
    };

const playBody = z.looseObject({
  context_uri: z.string().optional(),
  uris: z.array(z.string()).optional(),
  offset: z
    .looseObject({
      position: z.number().int().min(0).optional(),
      uri: z.string().optional(),
    })
    .optional(),
  position_ms: z.number().int().min(0).optional(),
});

const URI = /^spotify:(album|artist|playlist|track):([0-9A-Za-z]+)$/;

function parseUri(uri: string): { type: string; id: string } | undefined {
  const match = URI.exec(uri);
  return match?.[1] && match[2] ? { type: match[1], id: match[2] } : undefined;
}

/** The id of a `spotify:track:…` URI of the world's catalogue; 400 or 404 otherwise. */
export function trackIdOf(uri: string, world: World): string {
  const parsed = parseUri(uri);
  if (parsed?.type !== 'track') throw badRequest(`Invalid track uri: ${uri}`);
  if (!world.track(parsed.id)) throw noSuchTrack();
  return parsed.id;
}

/** The tracks a context plays, in order: an album's, a playlist's items, an artist's top tracks. */
export function contextTracks(world: World, context: PlayContext, atMs: number): string[] | null {
  const id = parseUri(context.uri)?.id ?? '';
  if (context.type === 'album') return world.album(id)?.trackIds.slice() ?? null;
  if (context.type === 'playlist') {
    if (!world.playlist(id)) return null;
    return world.playlistItems(id, atMs).map((item) => item.trackId);
  }
  if (!world.artist(id)) return null;
  return world.topTracks(id).map((track) => track.id);
}

function parseContextUri(uri: string): PlayContext {
  const parsed = parseUri(uri);
  if (!parsed || parsed.type === 'track') throw badRequest(`Invalid context uri: ${uri}`);
  return { type: parsed.type as PlayContext['type'], uri };
}

function startIndex(
  offset: { position?: number; uri?: string } | undefined,
  trackIds: readonly string[],
  world: World,
): number {
  if (offset?.uri !== undefined) {
    const index = trackIds.indexOf(trackIdOf(offset.uri, world));
    if (index === -1) throw noSuchTrack();
    return index;
  }
  const position = offset?.position ?? 0;
  if (position >= trackIds.length) throw noSuchTrack();
  return position;
}

/** Validates a play request's body (absent, or JSON as Spotify documents it). */
export function parsePlayRequest(body: unknown, world: World, atMs: number): PlayRequest {
  const parsed = playBody.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(
      `Invalid request body: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
    );
  }
  const { context_uri: contextUri, uris, offset, position_ms: positionMs } = parsed.data;
  if (contextUri !== undefined && uris !== undefined) {
    throw badRequest('Only one of context_uri and uris can be given');
  }
  if (contextUri !== undefined) {
    const context = parseContextUri(contextUri);
    if (context.type === 'artist' && offset !== undefined) {
      throw badRequest("Can't have offset for context type: ARTIST");
    }
    const trackIds = contextTracks(world, context, atMs);
    if (trackIds === null) throw new PlayerError(404, 'Not found.');
    if (trackIds.length === 0) throw restrictionViolated();
    const startAt = startIndex(offset, trackIds, world);
    return { kind: 'start', context, trackIds, startAt, positionMs: positionMs ?? 0 };
  }
  if (uris !== undefined) {
    if (uris.length === 0) throw badRequest('Invalid request body: uris must not be empty');
    const trackIds = uris.map((uri) => trackIdOf(uri, world));
    const startAt = startIndex(offset, trackIds, world);
    return { kind: 'start', context: null, trackIds, startAt, positionMs: positionMs ?? 0 };
  }
  return positionMs === undefined ? { kind: 'resume' } : { kind: 'resume', positionMs };
}
