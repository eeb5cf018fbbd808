import { readFileSync } from 'node:fs';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { parse } from 'yaml';
import {
  CORRECTIONS,
  dropDeprecatedRequirements,
  EXTENDED_FROM_CURRENT_DESCRIPTION,
  isObject,
  requiredLists,
  type DescriptionFile,
  type Json,
} from './spec-exceptions';

export const SPOTIFY_DIR = new URL('../../../../reference/spotify/', import.meta.url);

export type Mode = 'extended' | 'development';

/** The descriptions the suite reads, as it reads them. */
export type DescriptionName = 'pre-2026-02' | 'current' | 'current, deprecated fields forbidden';

const FILES: Record<DescriptionFile, string> = {
  current: 'spotify-web-api.openapi.yml',
  'pre-2026-02': 'spotify-web-api.openapi.pre-2026-02.yml',
};

function loadDescription(name: DescriptionFile): Json {
  const document: unknown = parse(readFileSync(new URL(FILES[name], SPOTIFY_DIR), 'utf8'));
  if (!isObject(document)) throw new Error(`${FILES[name]} is not an OpenAPI document`);
  for (const correction of CORRECTIONS) {
    if (correction.only === undefined || correction.only === name) correction.apply(document);
  }
  return document;
}

/**
 * Development Mode as the current description has it: every property it marks `deprecated` is
 * gone for those apps, so its presence fails validation (`not: {}` matches nothing).
 */
function forbidDeprecatedFields(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(forbidDeprecatedFields);
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.properties)) {
    const properties = node.properties;
    for (const [name, property] of Object.entries(properties)) {
      if (isObject(property) && property.deprecated === true) {
        properties[name] = { not: {}, description: 'deprecated: absent in Development Mode' };
      }
    }
  }
  for (const value of Object.values(node)) forbidDeprecatedFields(value);
}

/** A deprecated field still required would fail every response: each must be an exception. */
function assertNoForbiddenRequirement(node: unknown, path: string): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => assertNoForbiddenRequirement(item, `${path}/${index}`));
    return;
  }
  if (!isObject(node)) return;
  const parts = [node, ...(Array.isArray(node.allOf) ? node.allOf : [])].filter(isObject);
  const forbidden = new Set(
    parts.flatMap((part) =>
      isObject(part.properties)
        ? Object.entries(part.properties)
            .filter(([, property]) => isObject(property) && isObject(property.not))
            .map(([name]) => name)
        : [],
    ),
  );
  for (const list of requiredLists(node)) {
    const conflict = list.find((name) => forbidden.has(name));
    if (conflict) {
      throw new Error(
        `${path} requires the deprecated ${conflict}: record it in DEPRECATED_BUT_REQUIRED`,
      );
    }
  }
  for (const [key, value] of Object.entries(node)) {
    assertNoForbiddenRequirement(value, `${path}/${key}`);
  }
}

async function backend(document: Json): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: document as unknown as Document,
    apiRoot: '/',
    quick: true,
    // The descriptions' `date-time` fields (added_at, played_at) are checked, not skipped.
    customizeAjv: (ajv) =>
      ajv.addFormat('date-time', {
        type: 'string',
        validate: (value: string) =>
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
          !Number.isNaN(Date.parse(value)),
      }),
  });
  return api.init();
}

export interface RecordedResponse {
  method: string;
  /** The path below the Web API root, e.g. `/tracks/4iV5W9uYEdYUVa79Axb7Rh`. */
  path: string;
  statusCode: number;
  contentType: string | undefined;
  body: string;
}

export interface Verdict {
  operationId: string | undefined;
  description: DescriptionName;
  errors: string[];
}

/** Validates sandbox responses against Spotify's descriptions with openapi-backend (Ajv). */
export class SpotifyDescriptions {
  private constructor(
    private readonly pre: OpenAPIBackend,
    private readonly current: OpenAPIBackend,
    private readonly development: OpenAPIBackend,
  ) {}

  static async load(): Promise<SpotifyDescriptions> {
    const development = loadDescription('current');
    dropDeprecatedRequirements(development);
    forbidDeprecatedFields(development);
    assertNoForbiddenRequirement(development, '#');
    return new SpotifyDescriptions(
      await backend(loadDescription('pre-2026-02')),
      await backend(loadDescription('current')),
      await backend(development),
    );
  }

  /** The description a mode's response is held to, and the operation there. */
  private describe(mode: Mode, method: string, path: string) {
    const request = { method, path, headers: {}, query: {} };
    if (mode === 'development') {
      const operation = this.development.router.matchOperation(request);
      return {
        api: this.development,
        operation,
        description: 'current, deprecated fields forbidden' as const,
      };
    }
    const operation = this.pre.router.matchOperation(request);
    if (operation) return { api: this.pre, operation, description: 'pre-2026-02' as const };
    const newer = this.current.router.matchOperation(request);
    if (newer?.operationId && EXTENDED_FROM_CURRENT_DESCRIPTION.includes(newer.operationId)) {
      return { api: this.current, operation: newer, description: 'current' as const };
    }
    return { api: this.pre, operation: undefined, description: 'pre-2026-02' as const };
  }

  /** Checks one response: a documented status, and a body its schema accepts. */
  validate(mode: Mode, response: RecordedResponse): Verdict {
    const { method, path, statusCode, body } = response;
    const { api, operation, description } = this.describe(mode, method, path);
    const verdict = (errors: string[]): Verdict => ({
      operationId: operation?.operationId,
      description,
      errors,
    });
    if (!operation?.operationId) return verdict([`no operation ${method} ${path}`]);
    const documented: unknown = operation.responses?.[String(statusCode)];
    if (!isObject(documented)) return verdict([`status ${statusCode} is not documented`]);
    const json = isObject(documented.content) ? documented.content['application/json'] : undefined;
    if (!isObject(json) || json.schema === undefined) {
      return verdict(body === '' ? [] : [`status ${statusCode} has no body, got ${body}`]);
    }
    if (!response.contentType?.startsWith('application/json')) {
      return verdict([`content-type ${response.contentType} is not JSON`]);
    }
    return this.validateBody(api, operation.operationId, statusCode, JSON.parse(body), verdict);
  }

  /** Checks a JSON value against an operation's response (for samples and broken objects). */
  validateValue(
    descriptionName: 'pre-2026-02' | 'current',
    operationId: string,
    statusCode: number,
    value: unknown,
  ): string[] {
    const api = descriptionName === 'current' ? this.current : this.pre;
    return this.validateBody(api, operationId, statusCode, value, (errors) => ({
      operationId,
      description: descriptionName,
      errors,
    })).errors;
  }

  /** The same, for Development Mode (deprecated fields forbidden). */
  validateDevelopmentValue(operationId: string, statusCode: number, value: unknown): string[] {
    return this.validateBody(this.development, operationId, statusCode, value, (errors) => ({
      operationId,
      description: 'current, deprecated fields forbidden',
      errors,
    })).errors;
  }

  private validateBody(
    api: OpenAPIBackend,
    operationId: string,
    statusCode: number,
    value: unknown,
    verdict: (errors: string[]) => Verdict,
  ): Verdict {
    const validators = api.validator.getStatusBasedResponseValidatorForOperation(operationId);
    if (!validators?.[String(statusCode)]) {
      return verdict([`${operationId} has no schema for status ${statusCode}`]);
    }
    const result = api.validateResponse(value, operationId, statusCode);
    return verdict(
      (result.errors ?? []).map(
        (error) =>
          `${error.instancePath || '/'} ${
            error.keyword === 'not' ? 'is deprecated: absent in Development Mode' : error.message
          }`,
      ),
    );
  }
}
