import type { SuggestionList, SuggestionSection } from '@earshot/contract/suggestions';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { useSuggestionsQuery } from '../api/suggestions';
import {
  DEFAULT_ON_REPEAT_DAYS,
  DISCOVER_SECTIONS,
  DISCOVER_TEXTS,
  type DiscoverSectionInfo,
  type OnRepeatDays,
} from '../discoverSections';
import { useStagedLoading, useStageTimers } from '../hooks/useStagedLoading';
import { DiscoverSection, type SectionContent, type SuggestionSlots } from './DiscoverSection';
import { OnRepeatTimeFilter } from './OnRepeatTimeFilter';
import './discover.css';

/**
 * What a section shows, or null when it is hidden: while it has not loaded, and when it has
 * nothing to suggest, unless the viewer acted on it (filter, refresh, likes): then it stays,
 * with its placeholder, so its controls stay in reach.
 */
function sectionContent(
  info: DiscoverSectionInfo,
  query: UseQueryResult<SuggestionList>,
  touched: boolean,
): SectionContent | null {
  if (query.isError && !query.isFetching) return { kind: 'failed' };
  if (!query.data) return null;
  // Like Your On-Repeat holds songs not liked: one liked here leaves at once.
  const items =
    info.section === 'like-on-repeat'
      ? query.data.items.filter((item) => !item.liked)
      : query.data.items;
  if (items.length > 0) return { kind: 'items', items };
  return touched || query.data.items.length > 0 ? { kind: 'empty' } : null;
}

/** The Discover page (docs/product.md, Discover): four sections of suggestions, loaded in stages. */
export function DiscoverPage(slots: SuggestionSlots) {
  const [days, setDays] = useState<OnRepeatDays>(DEFAULT_ON_REPEAT_DAYS);
  const [touched, setTouched] = useState<ReadonlySet<SuggestionSection>>(new Set());
  const stages = useStagedLoading();
  const { started } = stages;
  // One query per section, in the order they show and load.
  const queries = [
    useSuggestionsQuery('unheard-from-followed', null, started > 0),
    useSuggestionsQuery('like-on-repeat', days, started > 1),
    useSuggestionsQuery('friends-favorites', null, started > 2),
    useSuggestionsQuery('rediscover-likes', null, started > 3),
  ];
  const settled = queries.map((query) => query.isSuccess || query.isError);
  useStageTimers(stages, settled);

  const touch = (section: SuggestionSection) =>
    setTouched((previous) => new Set(previous).add(section));
  const contents = DISCOVER_SECTIONS.map((info, index) =>
    sectionContent(info, queries[index]!, touched.has(info.section)),
  );
  const loading = settled.some((done) => !done);

  return (
    <section className="discover-page">
      <PageMeta title={DISCOVER_TEXTS.title} />
      <h1 className="discover-page__title">{DISCOVER_TEXTS.title}</h1>
      {DISCOVER_SECTIONS.map((info, index) => {
        const content = contents[index];
        const query = queries[index]!;
        if (!content) return null;
        return (
          <DiscoverSection
            key={info.section}
            info={info}
            content={content}
            refreshing={query.isFetching}
            onRefresh={
              info.refreshable
                ? () => {
                    touch(info.section);
                    void query.refetch();
                  }
                : undefined
            }
            controls={
              info.timeFilter && (
                <OnRepeatTimeFilter
                  days={days}
                  onChange={(next) => {
                    touch(info.section);
                    setDays(next);
                  }}
                />
              )
            }
            {...slots}
          />
        );
      })}
      {loading && <LoadingState label={DISCOVER_TEXTS.loading} />}
      {!loading && contents.every((content) => content === null) && (
        <p className="discover-page__nothing">{DISCOVER_TEXTS.nothing}</p>
      )}
    </section>
  );
}
