import { type AnyPgColumn, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { albums, artists, tracks } from './catalog';

/**
 * Search's word index (migration `search_words`): the words of each searched name, one row per
 * word and item, in C order, so the items with a word starting with a query word are a B-tree
 * range; `(item, word)` answers whether an item also has another word. Written only by the
 * catalogue tables' triggers.
 */
function wordTable(tableName: string, itemColumn: string, item: AnyPgColumn) {
  return pgTable(
    tableName,
    {
      /** `COLLATE "C"` in the migration (drizzle cannot write it): `LIKE 'w%'` is a range. */
      word: text('word').notNull(),
      itemId: text(itemColumn)
        .notNull()
        .references(() => item, { onDelete: 'cascade' }),
    },
    (table) => [
      primaryKey({ columns: [table.word, table.itemId] }),
      index(`${tableName}_${itemColumn.replace(/_id$/, '')}_idx`).on(table.itemId, table.word),
    ],
  );
}

/** Words of each track's `search_text` (title, album, artists). */
export const trackWords = wordTable('track_words', 'track_id', tracks.id);
/** Words of each album's folded name. */
export const albumWords = wordTable('album_words', 'album_id', albums.id);
/** Words of each artist's folded name. */
export const artistWords = wordTable('artist_words', 'artist_id', artists.id);
