import type { SuggestionItem } from '@earshot/contract/suggestions';
import type { ReactNode } from 'react';
import { InfoTooltip } from '../../../components/ui/InfoTooltip';
import { RefreshIcon } from '../../../components/ui/icons';
import { useTrackMenu } from '../../../components/ui/useTrackMenu';
import { DISCOVER_TEXTS, type DiscoverSectionInfo } from '../discoverSections';
import { SuggestionRow } from './SuggestionRow';

export interface SuggestionSlots {
  /** The like button of a suggested track. */
  renderLikeButton: (item: SuggestionItem) => ReactNode;
  /** The items of a suggested track's context menu. */
  renderTrackMenuItems: (item: SuggestionItem) => ReactNode;
}

/** What a section shows: its items, a failure, or its empty placeholder. */
export type SectionContent =
  { kind: 'items'; items: SuggestionItem[] } | { kind: 'failed' } | { kind: 'empty' };

interface DiscoverSectionProps extends SuggestionSlots {
  info: DiscoverSectionInfo;
  content: SectionContent;
  /** Another selection; absent for sections that are not refreshable. */
  onRefresh?: () => void;
  refreshing: boolean;
  /** Controls shown next to the title (the time filter). */
  controls?: ReactNode;
}

/** One Discover section: title, info tooltip, controls and up to 5 suggestions. */
export function DiscoverSection({
  info,
  content,
  onRefresh,
  refreshing,
  controls,
  renderLikeButton,
  renderTrackMenuItems,
}: DiscoverSectionProps) {
  const { openFor, menu } = useTrackMenu(renderTrackMenuItems);
  const headingId = `discover-${info.section}`;

  return (
    <section className="discover-section" aria-labelledby={headingId}>
      <header className="discover-section__header">
        <h2 className="discover-section__title" id={headingId}>
          {info.title}
        </h2>
        <InfoTooltip subject={info.title} text={info.info} />
        <div className="discover-section__controls">
          {controls}
          {onRefresh && (
            <button
              type="button"
              className="discover-section__refresh"
              aria-label={`Refresh ${info.title}`}
              title="Refresh"
              disabled={refreshing}
              aria-busy={refreshing}
              onClick={onRefresh}
            >
              <RefreshIcon size={18} />
            </button>
          )}
        </div>
      </header>
      {content.kind === 'failed' && (
        <p className="discover-section__status discover-section__status--error" role="alert">
          {DISCOVER_TEXTS.failed}
        </p>
      )}
      {content.kind === 'empty' && (
        <p className="discover-section__status">{DISCOVER_TEXTS.emptySection}</p>
      )}
      {content.kind === 'items' && (
        <ol className="track-list" aria-labelledby={headingId}>
          {content.items.map((item) => (
            <SuggestionRow
              key={item.track.id}
              item={item}
              likeButton={renderLikeButton(item)}
              onOpenMenu={openFor(item)}
            />
          ))}
        </ol>
      )}
      {menu}
    </section>
  );
}
