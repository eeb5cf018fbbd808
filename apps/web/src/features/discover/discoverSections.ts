import type { SuggestionSection } from '@earshot/contract/suggestions';

/** The texts of the Discover page (docs/product.md, Discover), verbatim. */
export const DISCOVER_TEXTS = {
  title: 'Discover',
  loading: 'Discovering new music for you...',
  nothing: 'No suggestions available at the moment',
  failed: 'Failed to load suggestions',
  emptySection: 'No suggestions right now',
} as const;

export interface DiscoverSectionInfo {
  section: SuggestionSection;
  title: string;
  /** What the section's info tooltip explains. */
  info: string;
  refreshable: boolean;
  /** Like Your On-Repeat's time filter. */
  timeFilter: boolean;
}

/** The four sections, in the order they show and load. */
export const DISCOVER_SECTIONS: readonly DiscoverSectionInfo[] = [
  {
    section: 'unheard-from-followed',
    title: 'New from Followed Artists',
    info: "Recent releases by artists you follow on Spotify that you haven't played yet.",
    refreshable: true,
    timeFilter: false,
  },
  {
    section: 'like-on-repeat',
    title: 'Like Your On-Repeat',
    info: "The songs you've played most in the chosen time that you haven't liked yet. One click to like them.",
    refreshable: false,
    timeFilter: true,
  },
  {
    section: 'friends-favorites',
    title: 'Popular with Friends',
    info: "Songs your friends played or liked lately that you've never played. The more friends and the more recent, the likelier.",
    refreshable: true,
    timeFilter: false,
  },
  {
    section: 'rediscover-likes',
    title: 'Rediscover Likes',
    info: "Songs you liked but haven't played for a long time, favouring the ones you once played most.",
    refreshable: true,
    timeFilter: false,
  },
];

/** Like Your On-Repeat's time filter: days, or null for all time. */
export type OnRepeatDays = 365 | 90 | 30 | 7 | null;

/** The time filter's option texts. */
export function timeFilterLabel(days: OnRepeatDays): string {
  switch (days) {
    case null:
      return 'All time';
    case 365:
      return '1 Year';
    case 90:
      return '3 Months';
    case 30:
      return '1 Month';
    case 7:
      return '1 Week';
  }
}

/** The window Like Your On-Repeat opens with. */
export const DEFAULT_ON_REPEAT_DAYS: OnRepeatDays = 30;
