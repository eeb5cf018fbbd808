import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Addresses that asked for beta access (one row each, stored lower-cased) and whether an admin
 * accepted them. With BETA_INVITE_ONLY only accepted addresses (and admins) may create accounts.
 */
export const betaRequests = pgTable('beta_requests', {
  email: text('email').primaryKey(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
});
