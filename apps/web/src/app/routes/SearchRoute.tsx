import { useLocation, useNavigate, useParams } from 'react-router';
import { PageMeta } from '../../components/ui/PageMeta';
import { SearchModal } from '../../features/search/components/SearchModal';
import { searchPath, useSearchBackground } from '../searchNavigation';

/**
 * `/search/{query}`: the search modal over the page it was opened from (the layout keeps that
 * page shown) and nothing of its own (docs/product.md §2, Routes). The address follows the
 * typed query; closing goes back.
 */
export function SearchRoute() {
  const { query = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const background = useSearchBackground();

  return (
    <>
      {/* Opened as the first page, none under it names the document (axe-core: document-title). */}
      {!background && <PageMeta noindex />}
      <SearchModal
        initialText={query}
        onTextChange={(text) =>
          void navigate(searchPath(text), { replace: true, state: location.state })
        }
        onClose={() => {
          // Loaded as the first page (a shared link, say), there is no page of ours to go back to.
          const earlierEntry = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
          void (background || earlierEntry ? navigate(-1) : navigate('/', { replace: true }));
        }}
      />
    </>
  );
}
