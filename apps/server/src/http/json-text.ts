import type { FastifyReply } from 'fastify';

/**
 * Sends JSON text as it is: a cached answer was shaped by the service's contract types when it
 * was read (the route's type provider only knows the parsed shape).
 */
export function sendJsonText(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}
