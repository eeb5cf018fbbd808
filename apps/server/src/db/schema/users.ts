import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spotifyId: text('spotify_id').notNull().unique(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    /** Null when Spotify hides it (Development Mode apps). */
    email: text('email'),
    picture: text('picture'),
    /** Premium plan; null while unknown (Development Mode apps hide `product`). */
    subscribed: boolean('subscribed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${table.username})`),
    // Search finds people by the words of their name and username, accents and case ignored.
    index('users_search_trgm_idx').using(
      'gin',
      sql`earshot_fold(${table.name} || ' ' || ${table.username}) gin_trgm_ops`,
    ),
  ],
);

export type UserRow = typeof users.$inferSelect;
