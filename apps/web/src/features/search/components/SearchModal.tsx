import type { SearchResult, SearchResults } from '@earshot/contract/search';
import { Dialog, VisuallyHidden } from 'radix-ui';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { CloseIcon, SearchIcon } from '../../../components/ui/icons';
import { LoadingState } from '../../../components/ui/LoadingState';
import { SEARCH_MODAL_DEBOUNCE_MS } from '../../../lib/constants';
import { useSearchQuery } from '../api/search';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { SearchResultRow } from './SearchResultRow';
import './search.css';

/** The groups in the order they are shown, with their headings. */
const GROUPS = [
  ['tracks', 'Tracks'],
  ['albums', 'Albums'],
  ['artists', 'Artists'],
  ['users', 'Users'],
] as const satisfies readonly (readonly [keyof SearchResults, string])[];

/** Where a result leads: its page (profiles by username). */
export function resultPath(result: SearchResult): string {
  switch (result.type) {
    case 'track':
      return `/track/${encodeURIComponent(result.id)}`;
    case 'album':
      return `/album/${encodeURIComponent(result.id)}`;
    case 'artist':
      return `/artist/${encodeURIComponent(result.id)}`;
    case 'user':
      return `/user/${encodeURIComponent(result.data.username)}`;
  }
}

interface SearchModalProps {
  /** The query the modal opens with (from the address). */
  initialText: string;
  /** Called as the user types: the address follows the query. */
  onTextChange(text: string): void;
  onClose(): void;
}

/**
 * The search modal (docs/product.md §2, Search): the query runs 300 ms after typing pauses,
 * results come grouped by type, arrows move through them and Enter opens the one chosen.
 */
export function SearchModal({ initialText, onTextChange, onClose }: SearchModalProps) {
  const navigate = useNavigate();
  // What had focus when the modal opened (the header's button, say), to be given it back: the
  // modal opens by a route, with no Dialog.Trigger for Radix to return focus to.
  const [opener] = useState(() => document.activeElement);
  const [text, setText] = useState(initialText);
  const searched = useDebouncedValue(text.trim(), SEARCH_MODAL_DEBOUNCE_MS);
  const query = useSearchQuery(searched);
  const results = searched === '' ? undefined : query.data;
  const flat = useMemo(
    () => (results ? GROUPS.flatMap(([key]) => results[key] as SearchResult[]) : []),
    [results],
  );
  // The chosen result, by position in these results: new results start at the first one.
  const [choice, setChoice] = useState({ among: flat, index: 0 });
  const active = choice.among === flat ? choice.index : 0;
  const setActive = (index: number) => setChoice({ among: flat, index });
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const option = listRef.current?.querySelector(`[data-index="${active}"]`);
    // jsdom has no layout, hence no scrollIntoView.
    option?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (flat.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + flat.length) % flat.length);
    } else if (event.key === 'Enter') {
      const chosen = flat[active];
      if (chosen) {
        event.preventDefault();
        void navigate(resultPath(chosen));
      }
    }
  }

  const hasResults = flat.length > 0;

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="search-dialog__overlay" />
        <Dialog.Content
          className="search-dialog"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
          }}
        >
          <VisuallyHidden.Root asChild>
            <Dialog.Title>Search</Dialog.Title>
          </VisuallyHidden.Root>
          <div className="search-dialog__field">
            <SearchIcon size={20} />
            <input
              className="search-dialog__input"
              type="search"
              role="combobox"
              aria-label="Search"
              aria-autocomplete="list"
              aria-expanded={hasResults}
              aria-controls={listId}
              aria-activedescendant={hasResults ? optionId(active) : undefined}
              placeholder="Tracks, albums, artists and people"
              autoComplete="off"
              spellCheck={false}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                onTextChange(event.target.value);
              }}
              onKeyDown={onKeyDown}
            />
            <Dialog.Close
              className="round-button icon-button icon-button--small"
              aria-label="Close search"
            >
              <CloseIcon size={18} />
            </Dialog.Close>
          </div>
          {/* Focusable so that the keyboard can scroll it too (its options are reached through
              the combobox, so none of them is in the tab order). */}
          <div className="search-dialog__body" tabIndex={0}>
            {searched !== '' && query.isError && (
              <p className="search-dialog__message" role="alert">
                Failed to search: {query.error.message}
              </p>
            )}
            {searched !== '' && query.isPending && <LoadingState label="Searching…" />}
            {results && !query.isPlaceholderData && !hasResults && (
              <p className="search-dialog__message" role="status">
                No results found for &quot;{searched}&quot;
              </p>
            )}
            <div id={listId} role="listbox" aria-label="Search results" ref={listRef}>
              {results &&
                GROUPS.map(([key, heading]) => {
                  const group = flat.flatMap((result, index) =>
                    `${result.type}s` === key ? [{ result, index }] : [],
                  );
                  if (group.length === 0) return null;
                  const headingId = `${listId}-${key}`;
                  return (
                    <div
                      key={key}
                      role="group"
                      aria-labelledby={headingId}
                      className="search-dialog__group"
                    >
                      <div id={headingId} className="search-dialog__heading">
                        {heading}
                      </div>
                      {group.map(({ result, index }) => (
                        <SearchResultRow
                          key={`${result.type}-${result.id}`}
                          id={optionId(index)}
                          index={index}
                          result={result}
                          to={resultPath(result)}
                          selected={index === active}
                          onPointerEnter={() => setActive(index)}
                        />
                      ))}
                    </div>
                  );
                })}
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
