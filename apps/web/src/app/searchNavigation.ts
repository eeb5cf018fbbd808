import { useCallback } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router';

/** What `/search/{query}` keeps in the history entry: the page the modal opened over. */
interface SearchState {
  background?: Location;
}

const SEARCH_PATH = /^\/search(?:\/|$)/;

export function isSearchPath(pathname: string): boolean {
  return SEARCH_PATH.test(pathname);
}

/** `/search/{query}`: the path that follows the typed query. */
export function searchPath(text: string): string {
  return `/search/${encodeURIComponent(text)}`;
}

/** The page under the search modal, when it was opened over one. */
export function useSearchBackground(): Location | undefined {
  const location = useLocation();
  if (!isSearchPath(location.pathname)) return undefined;
  return (location.state as SearchState | null)?.background;
}

/** Opens the search modal over the current page (the header button, the `/` key). */
export function useOpenSearch(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (isSearchPath(location.pathname)) return;
    const state: SearchState = { background: location };
    void navigate(searchPath(''), { state });
  }, [navigate, location]);
}
