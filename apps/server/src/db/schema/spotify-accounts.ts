import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** The Spotify connection of a user: tokens encrypted at rest (AES-256-GCM). */
export const spotifyAccounts = pgTable('spotify_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accessTokenEncrypted: text('access_token_encrypted').notNull(),
  refreshTokenEncrypted: text('refresh_token_encrypted').notNull(),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }).notNull(),
  scopes: text('scopes').notNull(),
  /** `revoked` once Spotify answers invalid_grant: the user must connect again. */
  status: text('status', { enum: ['active', 'revoked'] })
    .notNull()
    .default('active'),
  connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
