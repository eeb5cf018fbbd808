import type { AdminNotifications, ModerationDecision } from '@earshot/contract/admin';
import { useState, type ReactNode } from 'react';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { useAcceptBetaMutation } from '../api/acceptBeta';
import { useModerationHistoryQuery } from '../api/moderationHistory';
import { useReviewMutation, type ReportedItem } from '../api/reviewReports';
import './admin.css';

export const DEVELOPMENT_MODE_NOTE =
  "Spotify apps in Development Mode serve at most 5 users, and each must be added in Spotify's " +
  'Developer Dashboard (your app → User Management) before they can log in.';

function reportCountText(count: number): string {
  return count === 1 ? '1 report' : `${count} reports`;
}

/** One waiting item: its name, what else identifies it, and the admin's buttons (`children`). */
function AdminItem({
  title,
  detail,
  children,
}: {
  title: string;
  detail?: string;
  children: ReactNode;
}) {
  return (
    <li className="admin-item">
      <div className="admin-item__text">
        <span className="admin-item__title">{title}</span>
        {detail !== undefined && <span className="admin-item__detail">{detail}</span>}
      </div>
      <div className="admin-item__actions">{children}</div>
    </li>
  );
}

/** A titled list of waiting items, shown only when there is one. */
function AdminSection<T>({
  title,
  items,
  children,
}: {
  title: string;
  items: readonly T[] | undefined;
  children: (item: T) => ReactNode;
}) {
  if (!items || items.length === 0) return null;
  return (
    <div className="admin-section">
      <h3 className="admin-section__title">{title}</h3>
      <ul className="admin-section__list">{items.map(children)}</ul>
    </div>
  );
}

function ReportedItemRow({
  item,
  detail,
  count,
}: {
  item: ReportedItem;
  detail?: string;
  count: number;
}) {
  const review = useReviewMutation(item);
  return (
    <AdminItem
      title={item.name}
      detail={`${detail ? `${detail} · ` : ''}${reportCountText(count)}`}
    >
      <button
        type="button"
        className="button button--primary admin-item__button"
        aria-label={`Approve ${item.name}`}
        disabled={review.isPending}
        onClick={() => review.mutate('approve')}
      >
        Approve
      </button>
      <button
        type="button"
        className="button button--secondary admin-item__button"
        aria-label={`Reject ${item.name}`}
        disabled={review.isPending}
        onClick={() => review.mutate('reject')}
      >
        Reject
      </button>
    </AdminItem>
  );
}

function BetaRequestRow({ email, onAccepted }: { email: string; onAccepted: () => void }) {
  const accept = useAcceptBetaMutation(email, onAccepted);
  return (
    <AdminItem title={email}>
      <button
        type="button"
        className="button button--primary admin-item__button"
        aria-label={`Accept ${email}`}
        disabled={accept.isPending}
        onClick={() => accept.mutate()}
      >
        Accept
      </button>
    </AdminItem>
  );
}

const ACTION_TEXT: Record<ModerationDecision['action'], string> = {
  approve: 'approved',
  reject: 'rejected',
  global_unignore: 'globally unignored',
  beta_accept: 'accepted for the beta',
};

function DecisionHistory() {
  const history = useModerationHistoryQuery();
  return (
    <details className="admin-history">
      <summary>Decision history</summary>
      {history.isPending ? (
        <p className="admin-section__empty">Loading…</p>
      ) : history.isError ? (
        <p className="admin-section__error">{history.error.message}</p>
      ) : history.data.decisions.length === 0 ? (
        <p className="admin-section__empty">No decisions yet.</p>
      ) : (
        <ul className="admin-history__list">
          {history.data.decisions.map((decision) => (
            <li key={decision.id} className="admin-history__item">
              <span>
                {decision.admin ? decision.admin.name : 'A deleted account'}{' '}
                {ACTION_TEXT[decision.action]} <strong>{decision.target_label}</strong>
                {decision.report_count > 0 && ` (${reportCountText(decision.report_count)})`}
              </span>
              <RelativeTime iso={decision.decided_at} />
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

/** How many items wait for an admin (the bell's badge counts them). */
export function adminItemCount(data: AdminNotifications | undefined): number {
  if (!data) return 0;
  return (
    data.reports.tracks.length + data.reports.artists.length + data.beta_requests.pending.length
  );
}

interface AdminNotificationsPanelProps {
  data: AdminNotifications | undefined;
  error: Error | null;
}

/**
 * The admin part of the bell (see docs/product.md §3, Admin notifications): reported tracks,
 * reported artists and pending beta requests with their buttons, and the decision history.
 */
export function AdminNotificationsPanel({ data, error }: AdminNotificationsPanelProps) {
  const [acceptedOne, setAcceptedOne] = useState(false);
  return (
    <section className="admin-panel" aria-label="Admin">
      {error && (
        <p className="admin-section__error" role="alert">
          {error.message}
        </p>
      )}
      <AdminSection title="Reported tracks" items={data?.reports.tracks}>
        {(track) => (
          <ReportedItemRow
            key={track.uid}
            item={{ kind: 'track', key: track.uid, name: track.title }}
            detail={track.artists.map((artist) => artist.name).join(', ')}
            count={track.report_count}
          />
        )}
      </AdminSection>
      <AdminSection title="Reported artists" items={data?.reports.artists}>
        {(artist) => (
          <ReportedItemRow
            key={artist.artist_id}
            item={{ kind: 'artist', key: artist.artist_id, name: artist.name }}
            count={artist.report_count}
          />
        )}
      </AdminSection>
      <AdminSection title="Beta requests" items={data?.beta_requests.pending}>
        {(email) => (
          <BetaRequestRow key={email} email={email} onAccepted={() => setAcceptedOne(true)} />
        )}
      </AdminSection>
      {acceptedOne && (
        <p className="admin-note" role="status">
          {DEVELOPMENT_MODE_NOTE}
        </p>
      )}
      <DecisionHistory />
    </section>
  );
}
