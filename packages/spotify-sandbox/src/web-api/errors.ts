import type { FastifyReply } from 'fastify';

/** The Web API's error body: `{"error":{"status":N,"message":"..."}}`. */
export function sendApiError(reply: FastifyReply, status: number, message: string) {
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="spotify"');
  return reply.code(status).send({ error: { status, message } });
}
