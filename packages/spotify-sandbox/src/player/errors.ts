import type { FastifyReply } from 'fastify';

/** The `reason` values of Spotify's PlayerErrorObject that the sandbox's player gives. */
export type PlayerErrorReason =
  | 'NO_ACTIVE_DEVICE'
  | 'PREMIUM_REQUIRED'
  | 'NO_SPECIFIC_TRACK'
  | 'VOLUME_CONTROL_DISALLOW'
  | 'UNKNOWN';

/** A refused player command, answered as `{"error":{"status","message","reason"?}}`. */
export class PlayerError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
    readonly reason?: PlayerErrorReason,
  ) {
    super(message);
  }
}

export const noActiveDevice = () =>
  new PlayerError(404, 'Player command failed: No active device found', 'NO_ACTIVE_DEVICE');

export const premiumRequired = () =>
  new PlayerError(403, 'Player command failed: Premium required', 'PREMIUM_REQUIRED');

/** Spotify's answer to a command the playback cannot carry out (pausing while paused, …). */
export const restrictionViolated = () =>
  new PlayerError(403, 'Player command failed: Restriction violated', 'UNKNOWN');

export const deviceNotFound = () => new PlayerError(404, 'Device not found');

export const noSuchTrack = () =>
  new PlayerError(
    404,
    'Player command failed: The requested track does not exist',
    'NO_SPECIFIC_TRACK',
  );

export const badRequest = (message: string) => new PlayerError(400, message);

export function sendPlayerError(reply: FastifyReply, error: PlayerError) {
  const { status, message, reason } = error;
  return reply.code(status).send({ error: { status, message, ...(reason && { reason }) } });
}
