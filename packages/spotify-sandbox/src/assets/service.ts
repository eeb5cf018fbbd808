import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';

/** The stylesheet of the accounts pages; read once when the sandbox starts. */
export const assetsService: FastifyPluginAsync = async (app) => {
  const stylesheet = await readFile(new URL('./sandbox.css', import.meta.url), 'utf8');
  app.get('/sandbox.css', async (_request, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(stylesheet),
  );
};
