import type {
  AdminNotifications,
  ModerationAction,
  ModerationHistory,
} from '@earshot/contract/admin';
import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { moderationDecisions } from '../db/schema/ignores';
import { users } from '../db/schema/users';
import { acceptBetaAccess, pendingBetaEmails } from './beta';
import {
  pendingReports,
  removeGlobalIgnore,
  reviewReports,
  type IgnoreKind,
  type ReviewOutcome,
} from './ignore';

/** Decisions shown in the admin's history. */
const HISTORY_LIMIT = 50;

/** What waits for the admins: reports per song and per artist, and beta requests. */
export async function adminNotifications(db: Db): Promise<AdminNotifications> {
  const [reports, pending] = await Promise.all([pendingReports(db), pendingBetaEmails(db)]);
  return { reports, beta_requests: { pending } };
}

async function record(
  tx: Tx,
  adminId: string,
  action: ModerationAction,
  kind: IgnoreKind | 'beta',
  outcome: ReviewOutcome,
): Promise<void> {
  await tx.insert(moderationDecisions).values({
    adminId,
    action,
    targetKind: kind,
    targetKey: outcome.key,
    targetLabel: outcome.label,
    reportCount: outcome.reportCount,
  });
}

/** Approves (ignored for everyone) or rejects the pending reports of a song or an artist. */
export async function decideReports(
  db: Db,
  adminId: string,
  kind: IgnoreKind,
  key: string,
  action: 'approve' | 'reject',
): Promise<void> {
  await db.transaction(async (tx) => {
    const outcome = await reviewReports(tx, kind, key, action === 'approve');
    await record(tx, adminId, action, kind, outcome);
  });
}

/** Ends the global ignore of a song or an artist. */
export async function globalUnignore(
  db: Db,
  adminId: string,
  kind: IgnoreKind,
  key: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const outcome = await removeGlobalIgnore(tx, kind, key);
    await record(tx, adminId, 'global_unignore', kind, outcome);
  });
}

/** Accepts an address for the beta; recorded when it was not accepted yet. */
export async function acceptBeta(db: Db, adminId: string, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (await acceptBetaAccess(tx, email, adminId)) {
      await record(tx, adminId, 'beta_accept', 'beta', {
        key: email,
        label: email,
        reportCount: 0,
      });
    }
  });
}

/** The latest decisions, newest first, with the admin who made each. */
export async function moderationHistory(db: Db): Promise<ModerationHistory> {
  const rows = await db
    .select({
      decision: moderationDecisions,
      adminName: users.name,
      adminUsername: users.username,
    })
    .from(moderationDecisions)
    .leftJoin(users, eq(users.id, moderationDecisions.adminId))
    .orderBy(desc(moderationDecisions.decidedAt), desc(moderationDecisions.id))
    .limit(HISTORY_LIMIT);
  return {
    decisions: rows.map(({ decision, adminName, adminUsername }) => ({
      id: decision.id,
      action: decision.action,
      target_kind: decision.targetKind,
      target_key: decision.targetKey,
      target_label: decision.targetLabel,
      report_count: decision.reportCount,
      decided_at: decision.decidedAt.toISOString(),
      admin:
        decision.adminId && adminName !== null && adminUsername !== null
          ? { id: decision.adminId, name: adminName, username: adminUsername }
          : null,
    })),
  };
}
