import type { FastifyInstance } from 'fastify';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * Parses form bodies into URLSearchParams in this plugin's scope (replacing any parser the host
 * app registered), so repeated parameters stay visible and can be refused as OAuth requires.
 */
export function parseFormBodies(app: FastifyInstance): void {
  if (app.hasContentTypeParser(FORM_CONTENT_TYPE)) app.removeContentTypeParser(FORM_CONTENT_TYPE);
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    done(null, new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8')));
  });
}

/** The form parameters of a request body; none when the body was not a form. */
export function formParams(body: unknown): URLSearchParams {
  return body instanceof URLSearchParams ? body : new URLSearchParams();
}

/** The query string of a request as URLSearchParams (repeated parameters kept). */
export function queryParams(url: string): URLSearchParams {
  const start = url.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : url.slice(start + 1));
}

/** The first of `names` that appears more than once, if any. */
export function repeatedParam(
  params: URLSearchParams,
  names: readonly string[],
): string | undefined {
  return names.find((name) => params.getAll(name).length > 1);
}
