import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
  (table) => [uniqueIndex('users_username_lower_key').on(sql`lower(${table.username})`)],
);

export type UserRow = typeof users.$inferSelect;
