import type { FastifyPluginAsync } from 'fastify';
import type { AccountDirectory } from '../world/account';
import { isAvatarSize, renderAvatarSvg } from './avatar';

/** Images the Web API links to (`i.scdn.co` on Spotify), generated rather than fetched. */
export function imagesService({ accounts }: { accounts: AccountDirectory }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { size: string; file: string } }>(
      '/avatars/:size/:file',
      async (request, reply) => {
        const size = Number(request.params.size);
        const { file } = request.params;
        const account = file.endsWith('.svg') ? accounts.get(file.slice(0, -4)) : undefined;
        if (!account || !isAvatarSize(size)) return reply.callNotFound();
        return reply
          .header('content-type', 'image/svg+xml; charset=utf-8')
          .header('cache-control', 'public, max-age=86400')
          .header('content-security-policy', "default-src 'none'")
          .header('x-content-type-options', 'nosniff')
          .send(renderAvatarSvg(account, size));
      },
    );
  };
}
