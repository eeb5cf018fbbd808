import { z } from 'zod';
import { userReference } from './user';

/** What waits for the admins (see docs/product.md §3, Admin notifications). */
export const adminNotifications = z
  .object({
    reports: z.object({
      /** Reported songs (by uid), each with the number of users who reported it. */
      tracks: z.array(
        z.object({
          uid: z.string(),
          title: z.string(),
          artists: z.array(z.object({ id: z.string(), name: z.string() })),
          report_count: z.number().int(),
        }),
      ),
      artists: z.array(
        z.object({ artist_id: z.string(), name: z.string(), report_count: z.number().int() }),
      ),
    }),
    beta_requests: z.object({ pending: z.array(z.string()) }),
  })
  .meta({ id: 'AdminNotifications' });
export type AdminNotifications = z.infer<typeof adminNotifications>;

export const moderationAction = z.enum(['approve', 'reject', 'global_unignore', 'beta_accept']);
export type ModerationAction = z.infer<typeof moderationAction>;

/** One admin decision: who, when, on what. */
export const moderationDecision = z
  .object({
    id: z.number().int(),
    action: moderationAction,
    target_kind: z.enum(['track', 'artist', 'beta']),
    target_key: z.string(),
    /** The title, name or e-mail address as the admin saw it. */
    target_label: z.string(),
    report_count: z.number().int(),
    decided_at: z.string(),
    /** Null once the admin's account is deleted. */
    admin: userReference.nullable(),
  })
  .meta({ id: 'ModerationDecision' });
export type ModerationDecision = z.infer<typeof moderationDecision>;

export const moderationHistory = z
  .object({ decisions: z.array(moderationDecision) })
  .meta({ id: 'ModerationHistory' });
export type ModerationHistory = z.infer<typeof moderationHistory>;

/** The longest address SMTP carries. */
export const EMAIL_MAX_LENGTH = 254;

/** An e-mail address: trimmed, lower-cased, validated. */
export const emailAddress = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, 'That e-mail address is too long.')
  .toLowerCase()
  .pipe(z.email('Please enter a valid e-mail address.'));

/** `POST /api/user/beta/request` and `POST /api/admin/notifications/beta/accept`. */
export const betaEmail = z.object({ email: emailAddress }).meta({ id: 'BetaEmail' });
export type BetaEmail = z.infer<typeof betaEmail>;

/** The answer to a beta request: the same whether or not the address was already known. */
export const betaRequested = z.object({ detail: z.string() }).meta({ id: 'BetaRequested' });
export type BetaRequested = z.infer<typeof betaRequested>;

export const betaAccepted = z
  .object({ email: z.string(), accepted: z.literal(true) })
  .meta({ id: 'BetaAccepted' });
export type BetaAccepted = z.infer<typeof betaAccepted>;
