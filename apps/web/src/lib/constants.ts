/**
 * Timing and size constants of the product (docs/product.md §9). Every place that needs one of
 * these values imports it from here by name; no literal copies elsewhere.
 */

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;

// First paint
/** How long the first paint waits for the first page's chunk and data, asked for with it. */
export const FIRST_PAINT_WAIT_MS = SECOND_MS;
/**
 * How long the parts the first paint does not need wait for that paint at most (a page opened
 * in a background tab paints only once shown, decision 0048); not a product constant.
 */
export const AFTER_FIRST_PAINT_MAX_WAIT_MS = 3 * SECOND_MS;

// Recent and Likes lists
export const INFINITE_SCROLL_MARGIN_PX = 300;
export const ACTIVITY_SEARCH_DEBOUNCE_MS = 500;
/**
 * The least height of a feed row, wide and at 600 px or narrower (activity.css): a feed's first
 * answer renders the rows that fit the screen at this height before the rest.
 */
export const FEED_ROW_MIN_HEIGHT_PX = { wide: 69, narrow: 117 };

// Search modal
export const SEARCH_MODAL_DEBOUNCE_MS = 300;
export const SEARCH_RESULTS_LIMIT = 50;

// Track context menu
export const CONTEXT_MENU_LONG_PRESS_MS = 550;
export const CONTEXT_MENU_WIDTH_PX = 180;
export const CONTEXT_MENU_HEIGHT_PX = 120;

// Discover
export const DISCOVER_SECTION_LIMIT = 5;
export const DISCOVER_TIME_FILTER_DAYS = [null, 365, 90, 30, 7] as const;
export const DISCOVER_FIRST_SECTION_DELAY_MS = 500;
export const DISCOVER_NEXT_SECTION_DELAY_MS = 300;
export const DISCOVER_RETRY_COUNT = 3;

// Feedback
export const NOTIFICATION_DURATION_MS = 6 * SECOND_MS;
export const NOTIFICATION_EXIT_ANIMATION_MS = 200;
export const BUTTON_FLASH_MS = 200;
export const FRIENDS_LINK_COPIED_MS = 1_200;
export const SETTINGS_LINK_COPIED_MS = 1_500;
export const USERNAME_SAVED_MS = 2 * SECOND_MS;
/** How often relative dates ("3 hours ago") are recomputed; not a product constant. */
export const RELATIVE_TIME_REFRESH_MS = MINUTE_MS;

// Playback
export const PLAYED_ITEM_OVERRIDE_MS = 30 * SECOND_MS;
export const PLAYED_ITEM_LOADING_MAX_MS = 10 * SECOND_MS;
export const PLAYBACK_CONTROL_OVERRIDE_MS = 10 * SECOND_MS;
export const PROGRESS_TICK_MS = 500;
export const NEXT_TRACK_TRIGGER_MS = SECOND_MS;
export const MINI_PLAYER_RETRY_AFTER_TRANSFER_MS = SECOND_MS;
export const TRACK_PAGE_RETRY_AFTER_TRANSFER_MS = 1_500;
export const PLAY_RETRY_COUNT = 3;
export const PLAY_RETRY_DELAY_STEP_MS = 500;
export const PLAYBACK_POLL_COUNT = 10;
export const PLAYBACK_POLL_COUNT_AFTER_TRANSFER = 15;
export const PLAYBACK_POLL_INTERVAL_MS = 500;
export const PLAYBACK_REFETCH_PLAYING_MS = 5 * SECOND_MS;
export const PLAYBACK_REFETCH_IDLE_MS = 20 * SECOND_MS;
export const PLAYBACK_STALE_MS = 10 * SECOND_MS;
export const WEB_PLAYER_VOLUME = 0.8;

// Query freshness
export const DEFAULT_QUERY_RETRY = 2;
/** Data fetched this recently is not asked again when a page mounts (a route loader's prefetch). */
export const FETCHED_JUST_NOW_MS = 2 * SECOND_MS;
export const CURRENT_USER_STALE_MS = 30 * SECOND_MS;
export const CURRENT_USER_RETRY = 1;
export const IGNORED_LIST_STALE_MS = MINUTE_MS;
export const SPOTIFY_STATS_REFETCH_MS = MINUTE_MS;
export const SPOTIFY_STATS_STALE_MS = 5 * MINUTE_MS;
export const PENDING_FRIEND_REQUESTS_STALE_MS = 2 * MINUTE_MS;
export const PENDING_FRIEND_REQUESTS_REFETCH_MS = 5 * MINUTE_MS;
export const ADMIN_NOTIFICATIONS_STALE_MS = 10 * SECOND_MS;
export const ADMIN_NOTIFICATIONS_REFETCH_MS = 30 * SECOND_MS;
export const SEARCH_RESULTS_STALE_MS = 5 * MINUTE_MS;
export const ARTIST_TRACK_PLAYLIST_STALE_MS = MINUTE_MS;
export const ALBUM_STALE_MS = 5 * MINUTE_MS;
export const BACKEND_STATUS_STALE_MS = MINUTE_MS;
export const BACKEND_STATUS_REFETCH_MS = MINUTE_MS;
export const FRIENDSHIP_STATUS_STALE_MS = 10 * SECOND_MS;

// Service worker
export const SERVICE_WORKER_UPDATE_INTERVAL_MS = 5 * MINUTE_MS;

// Import
export const IMPORT_WAIT_TICK_MS = MINUTE_MS;
/** How often a queued or running import's progress is asked for; not a product constant. */
export const IMPORT_STATUS_POLL_MS = SECOND_MS;

// Download my data
export const DATA_EXPORT_POLL_MS = SECOND_MS;

// Profiles and artists
export const MEDAL_RANKS = 3;
export const ARTIST_HEADER_GENRES = 3;

// Live activity (GET /api/live)
/** A lost stream is opened again after this, doubling up to the maximum. */
export const LIVE_RETRY_MIN_MS = SECOND_MS;
export const LIVE_RETRY_MAX_MS = 30 * SECOND_MS;
/** Scrolled further than this, new items wait behind the "N new" pill instead of moving the page. */
export const LIVE_SCROLLED_PX = 120;
/**
 * New items arriving within this long go onto the feed together: a sync brings a friend's plays
 * in a burst, and each insert re-renders the whole list.
 */
export const LIVE_FEED_BATCH_MS = 200;
/** How often the progress of what friends play moves on screen. */
export const LIVE_PROGRESS_TICK_MS = SECOND_MS;
/**
 * A friend leaves "Listening now" this long after their track should have ended with no word
 * since: longer than the server's 30 s between asks, so a next track is heard of first.
 */
export const LIVE_NOW_PLAYING_GRACE_MS = 60 * SECOND_MS;

// Offline copies (decision 0027; not product constants)
/** Saved answers older than this are not shown offline. */
export const SAVED_QUERIES_MAX_AGE_MS = 7 * 24 * 60 * MINUTE_MS;
/** At most this many answers (pages, profiles, the user) are kept for offline use. */
export const SAVED_QUERIES_MAX = 60;
/** Answers are written this long after the cache changes, one write for a burst of them. */
export const SAVED_QUERIES_WRITE_DELAY_MS = SECOND_MS;
