/** Local storage keys of the browser's visitor record (docs/product.md §3). */
export const VISITOR_ID_KEY = 'earshot.visitorId';
export const PROMOTED_KEY = 'earshot.promoted';

/** 128 random bits as hex (crypto.randomUUID needs a secure context; this does not). */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Kept for this page when storage refuses (disabled, full, a private window). */
let unsavedVisitorId: string | null = null;

/**
 * This browser's anonymous visitor id: random, made on the first visit and kept in local
 * storage. It names no one and never leaves the browser except with an error report (only
 * when error reporting is configured): there are no third-party analytics.
 */
export function visitorId(): string {
  try {
    const saved = localStorage.getItem(VISITOR_ID_KEY);
    if (saved) return saved;
    const id = unsavedVisitorId ?? randomId();
    localStorage.setItem(VISITOR_ID_KEY, id);
    return id;
  } catch {
    unsavedVisitorId ??= randomId();
    return unsavedVisitorId;
  }
}

/** Whether this browser's visitor has signed in here at least once (was promoted to a user). */
export function isPromoted(): boolean {
  try {
    return localStorage.getItem(PROMOTED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Records that the visitor signed in; it stays through logouts. */
export function markPromoted(): void {
  try {
    localStorage.setItem(PROMOTED_KEY, 'true');
  } catch {
    // Storage refused: the flag is a hint, nothing depends on it being kept.
  }
}
