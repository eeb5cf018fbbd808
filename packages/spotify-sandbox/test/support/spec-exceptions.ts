/**
 * Where the community OpenAPI descriptions in `reference/spotify/` disagree with what Spotify
 * answers, in one place. Each entry says why; each patch checks that the description still says
 * what the entry corrects, so a fixed description fails loudly instead of hiding a stale exception.
 * Nothing else loosens validation.
 */

export type Json = { [key: string]: unknown };

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a path of keys through a document, failing loudly where the description changed. */
export function at(document: Json, path: readonly string[]): Json {
  let node: unknown = document;
  for (const key of path) {
    node = isObject(node) ? node[key] : undefined;
    if (node === undefined) throw new Error(`spec exceptions: ${path.join('/')} is gone`);
  }
  if (!isObject(node)) throw new Error(`spec exceptions: ${path.join('/')} is not an object`);
  return node;
}

/** Allows `null` besides what the schema at `path[...parent][key]` allows. */
function allowNull(document: Json, parent: readonly string[], key: string): void {
  const holder = at(document, parent);
  const schema = holder[key];
  if (!isObject(schema)) throw new Error(`spec exceptions: ${[...parent, key].join('/')} is gone`);
  if (schema.nullable === true) {
    throw new Error(`spec exceptions: ${[...parent, key].join('/')} is nullable already`);
  }
  holder[key] = { anyOf: [schema, { type: 'null' }] };
}

/** Allows `null` for each of `properties` of the component schema `schemaName`. */
function allowNullProperties(document: Json, schemaName: string, properties: readonly string[]) {
  for (const property of properties) {
    allowNull(document, ['components', 'schemas', schemaName, 'properties'], property);
  }
}

export type DescriptionFile = 'current' | 'pre-2026-02';

interface Exception {
  /** What Spotify does that the description does not say. */
  reason: string;
  /** The descriptions that say it; default both. */
  only?: DescriptionFile;
  apply(document: Json): void;
}

/** Corrections to the descriptions as published. */
export const CORRECTIONS: readonly Exception[] = [
  {
    reason:
      'The batch look-ups (GET /tracks, /albums, /artists ?ids=) answer null in place of an id ' +
      'that matches nothing, as Spotify documents in prose (and for audiobooks in the ' +
      "description itself); the descriptions' item schemas do not allow null.",
    apply(document) {
      for (const [response, property] of [
        ['ManyTracks', 'tracks'],
        ['ManyAlbums', 'albums'],
        ['ManyArtists', 'artists'],
      ] as const) {
        const path = ['components', 'responses', response, 'content', 'application/json'];
        allowNull(document, [...path, 'schema', 'properties', property], 'items');
      }
    },
  },
  {
    reason:
      'Cursor paging ends with `next: null` (the last page of /me/following, recently-played ' +
      'with nothing more), and an empty recently-played page has `cursors: null`; the ' +
      'description types `next` and `cursors` as never null.',
    apply(document) {
      allowNullProperties(document, 'CursorPagingObject', ['next', 'cursors']);
    },
  },
  {
    reason:
      'The last page of /me/following has `cursors: {"after": null}`: there is no artist ' +
      'after it. The description types the cursors as strings only.',
    apply(document) {
      allowNullProperties(document, 'CursorObject', ['after', 'before']);
    },
  },
  {
    reason:
      'A recently-played item heard outside any album, playlist or artist has `context: null`; ' +
      'the description does not allow null.',
    apply(document) {
      allowNullProperties(document, 'PlayHistoryObject', ['context']);
    },
  },
  {
    reason:
      "The generic library's 400 is described as a bare ErrorObject `{status, message}`; like " +
      'every Web API error it is `{"error": {status, message}}` (the README\'s error format): ' +
      'those three operations get the shared BadRequest response.',
    // The pre-2026-02 description predates the generic library.
    only: 'current',
    apply(document) {
      const item = at(document, ['paths', '/me/library']);
      for (const operation of [
        at(item, ['put']),
        at(item, ['delete']),
        at(document, ['paths', '/me/library/contains', 'get']),
      ]) {
        const schema = at(operation, ['responses', '400', 'content', 'application/json', 'schema']);
        if (schema.$ref !== '#/components/schemas/ErrorObject') {
          throw new Error('spec exceptions: the library 400 is no longer a bare ErrorObject');
        }
        at(operation, ['responses'])['400'] = { $ref: '#/components/responses/BadRequest' };
      }
    },
  },
  {
    reason:
      'Spotify answers 400 (malformed ids, bad parameters) and 404 (unknown ids) with the same ' +
      'error object as 401/403/429, but the descriptions declare 400 for three operations and ' +
      '404 for none: every operation gets the shared BadRequest and NotFound responses.',
    apply(document) {
      const responses = at(document, ['components', 'responses']);
      if (!isObject(responses.BadRequest) || !isObject(responses.NotFound)) {
        throw new Error('spec exceptions: the shared BadRequest/NotFound responses are gone');
      }
      for (const item of Object.values(at(document, ['paths']))) {
        if (!isObject(item)) continue;
        for (const operation of Object.values(item)) {
          if (!isObject(operation) || !isObject(operation.responses)) continue;
          operation.responses['400'] ??= { $ref: '#/components/responses/BadRequest' };
          operation.responses['404'] ??= { $ref: '#/components/responses/NotFound' };
        }
      }
    },
  },
];

/**
 * Development Mode reads the current description with every `deprecated` field forbidden (see
 * `openapi.ts`), but the description still lists some deprecated fields as required. Development
 * Mode apps do not get them, so they leave the `required` lists, and only there.
 */
export const DEPRECATED_BUT_REQUIRED: readonly { schema: string; fields: readonly string[] }[] = [
  // Album availability went with the February 2026 change, yet AlbumBase requires it.
  { schema: 'AlbumBase', fields: ['available_markets'] },
  // Album genres (always empty), label and popularity went too; AlbumObject requires them.
  { schema: 'AlbumObject', fields: ['genres', 'label', 'popularity'] },
  // `album_group` of an artist's discography is deprecated and still required.
  { schema: 'ArtistDiscographyAlbumObject', fields: ['album_group'] },
  // The same inconsistency in the podcast and audiobook objects (the sandbox serves none).
  { schema: 'EpisodeBase', fields: ['audio_preview_url'] },
  { schema: 'ChapterBase', fields: ['audio_preview_url'] },
  { schema: 'ShowBase', fields: ['available_markets', 'publisher'] },
  { schema: 'AudiobookBase', fields: ['available_markets', 'publisher'] },
];

/** The `required` list a schema declares itself or in its inline `allOf` members. */
export function requiredLists(schema: Json): string[][] {
  const lists: string[][] = [];
  for (const part of [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])]) {
    if (isObject(part) && Array.isArray(part.required)) lists.push(part.required as string[]);
  }
  return lists;
}

export function dropDeprecatedRequirements(document: Json): void {
  for (const { schema, fields } of DEPRECATED_BUT_REQUIRED) {
    const lists = requiredLists(at(document, ['components', 'schemas', schema]));
    for (const field of fields) {
      const list = lists.find((candidate) => candidate.includes(field));
      if (!list) throw new Error(`spec exceptions: ${schema} no longer requires ${field}`);
      list.splice(list.indexOf(field), 1);
    }
  }
}

/**
 * Operations Extended Quota Mode apps may call that the pre-2026-02 description predates: the
 * generic library (added in February 2026 for every app: "You can optionally adopt the new
 * generic library endpoints", says Spotify's migration guide) and `/playlists/{id}/items`, the
 * new name of `/tracks`. Their extended-mode answers are checked against the current description
 * as published, deprecated fields allowed.
 */
export const EXTENDED_FROM_CURRENT_DESCRIPTION: readonly string[] = [
  'save-library-items',
  'remove-library-items',
  'check-library-contains',
  'get-playlists-items',
];
