import { PassThrough, type Writable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { queryParams } from '../http/form';
import { sendPage } from '../http/sandbox-page';
import type { World } from '../world/model';
import { createWorld } from '../world/world';
import { writeAccountDataZip } from './account-data';
import {
  writeExtendedHistoryZip,
  type ExportSummary,
  type ExportVariant,
} from './extended-history';
import { chooseAccountPage, downloadPage, exportErrorPage } from './page';

/**
 * "Privacy → Download your data" and the downloads it links to. Not part of Spotify's API, and
 * without authentication: the sandbox's data is made up, and the page says so.
 *
 * - `GET privacy`: choose an account; `GET privacy?account=<id>`: its downloads.
 * - `GET exports/<id>/extended-streaming-history.zip[?variant=current|legacy][&scale=N][&years=N]`
 * - `GET exports/<id>/account-data.zip[?variant=current|legacy]`
 *
 * Both ZIPs are streamed as they are built, as of the sandbox clock's now, and named
 * `my_spotify_data.zip` like Spotify's. `scale` and `years` (benchmarks) export the same seed's
 * world with `scale` times the daily listening and `years` of history instead of the running
 * world, so plays the sandbox's player recorded are not in those.
 */

export interface ExportsDeps {
  world: World;
  clock: Clock;
  publicUrl: string;
}

const MAX_SCALE = 100;
const MAX_YEARS = 30;

class BadRequest extends Error {}

function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new BadRequest(`${name} is given more than once`);
  return values[0] ?? null;
}

function variantParam(params: URLSearchParams): ExportVariant | undefined {
  const variant = single(params, 'variant');
  if (variant === null) return undefined;
  if (variant !== 'current' && variant !== 'legacy') {
    throw new BadRequest('variant must be current or legacy');
  }
  return variant;
}

function wholeParam(params: URLSearchParams, name: string, max: number): number | undefined {
  const text = single(params, name);
  if (text === null) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > max) {
    throw new BadRequest(`${name} must be a whole number from 1 to ${max}`);
  }
  return value;
}

/** Writes one export of an account to a destination, from the request's query. */
type Export = (
  accountId: string,
  params: URLSearchParams,
  destination: Writable,
) => Promise<ExportSummary>;

export function exportsService({ world, clock, publicUrl }: ExportsDeps): FastifyPluginAsync {
  /** The running world, or for the benchmark knobs the same seed's world grown as asked. */
  function worldFor(params: URLSearchParams): World {
    const scale = wholeParam(params, 'scale', MAX_SCALE);
    const years = wholeParam(params, 'years', MAX_YEARS);
    if (scale === undefined && years === undefined) return world;
    return createWorld({
      seed: world.seed,
      sizes: {
        ...world.sizes,
        dailyPlaysScale: world.sizes.dailyPlaysScale * (scale ?? 1),
        historyYears: years ?? world.sizes.historyYears,
      },
    });
  }

  const extendedHistory: Export = (accountId, params, destination) => {
    const variant = variantParam(params);
    const source = worldFor(params);
    return writeExtendedHistoryZip(
      source,
      accountId,
      { asOfMs: clock.now(), variant },
      destination,
    );
  };

  const accountData: Export = (accountId, params, destination) => {
    const variant = variantParam(params);
    const options = { asOfMs: clock.now(), variant, publicUrl };
    return writeAccountDataZip(world, accountId, options, destination);
  };

  /**
   * Streams an export as the response once its parameters are checked (they are read before the
   * first byte); a failure after that can only cut the download short.
   */
  function download(
    request: FastifyRequest<{ Params: { accountId: string } }>,
    reply: FastifyReply,
    write: Export,
  ): FastifyReply {
    const { accountId } = request.params;
    /** The page for a browser following the form; `{"detail"}` for any other client. */
    const refuse = (status: number, message: string) =>
      (request.headers.accept ?? '').includes('text/html')
        ? sendPage(reply, status, exportErrorPage(message))
        : reply.code(status).header('cache-control', 'no-store').send({ detail: message });
    if (!world.account(accountId)) return refuse(404, 'No such account in this sandbox.');
    const body = new PassThrough();
    let job: Promise<ExportSummary>;
    try {
      job = write(accountId, queryParams(request.url), body);
    } catch (error) {
      if (error instanceof BadRequest) return refuse(400, error.message);
      throw error;
    }
    job.catch((error: unknown) => {
      if (!reply.raw.destroyed) request.log.error({ err: error }, 'spotify-sandbox: export failed');
      body.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', 'attachment; filename="my_spotify_data.zip"')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }

  return async (app) => {
    app.get('/privacy', async (request, reply) => {
      const accountId = queryParams(request.url).get('account');
      if (accountId === null) return sendPage(reply, 200, chooseAccountPage(world.accounts));
      const account = world.account(accountId);
      if (!account) {
        const notice = 'That account does not exist. Choose one of these.';
        return sendPage(reply, 404, chooseAccountPage(world.accounts, notice));
      }
      return sendPage(reply, 200, downloadPage(account));
    });

    const zipRoute = { exposeHeadRoute: false };
    app.get<{ Params: { accountId: string } }>(
      '/exports/:accountId/extended-streaming-history.zip',
      zipRoute,
      async (request, reply) => download(request, reply, extendedHistory),
    );
    app.get<{ Params: { accountId: string } }>(
      '/exports/:accountId/account-data.zip',
      zipRoute,
      async (request, reply) => download(request, reply, accountData),
    );
  };
}
