import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVITY_SEARCH_DEBOUNCE_MS } from '../../../lib/constants';
import { SEARCH_PLACEHOLDER } from '../feedTexts';

interface SearchState {
  /** What the box shows. */
  text: string;
  /** The `q` of the address that `text` was last reconciled with. */
  seen: string;
  /** The last `q` this box wrote; its arrival in the address must not reset the text. */
  written: string | null;
}

/**
 * The search box of the Recent and Likes pages: typing updates the `q` query parameter after a
 * 500 ms pause (replacing the history entry), so a search survives reloads and links. A `q`
 * changed from elsewhere (back, a link) replaces the text.
 */
export function ActivitySearchBox() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const [search, setSearch] = useState<SearchState>({ text: q, seen: q, written: null });

  if (q !== search.seen) {
    setSearch(q === search.written ? { ...search, seen: q } : { text: q, seen: q, written: null });
  }

  const wanted = search.text.trim();
  useEffect(() => {
    if (wanted === q) return;
    const timer = setTimeout(() => {
      setSearch((current) => ({ ...current, written: wanted }));
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (wanted === '') next.delete('q');
          else next.set('q', wanted);
          return next;
        },
        { replace: true },
      );
    }, ACTIVITY_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wanted, q, setSearchParams]);

  return (
    <div className="activity-search" role="search">
      <input
        type="search"
        className="activity-search__input"
        placeholder={SEARCH_PLACEHOLDER}
        aria-label={SEARCH_PLACEHOLDER}
        value={search.text}
        onChange={(event) => setSearch({ ...search, text: event.target.value })}
      />
    </div>
  );
}
