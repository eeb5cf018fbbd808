import type { SearchResult } from '@earshot/contract/search';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';

/** The picture and the texts of a result (docs/product.md §2, Search). */
function describe(result: SearchResult): { picture: string | null; title: string; detail: string } {
  switch (result.type) {
    case 'track': {
      const { track } = result.data;
      return {
        picture: track.album?.picture ?? null,
        title: track.title,
        detail: track.artists.map((artist) => artist.name).join(', '),
      };
    }
    case 'album':
      return { picture: result.data.picture, title: result.data.name, detail: '' };
    case 'artist':
      return {
        picture: result.data.picture,
        title: result.data.name,
        detail: result.data.genres.join(', '),
      };
    case 'user':
      return {
        picture: result.data.picture,
        title: result.data.name,
        detail: result.data.username,
      };
  }
}

interface SearchResultRowProps {
  id: string;
  index: number;
  result: SearchResult;
  to: string;
  selected: boolean;
  onPointerEnter(): void;
}

/** One result: a link to its page, an option of the results list. */
export function SearchResultRow({
  id,
  index,
  result,
  to,
  selected,
  onPointerEnter,
}: SearchResultRowProps) {
  const { picture, title, detail } = describe(result);
  return (
    <Link
      id={id}
      to={to}
      role="option"
      aria-selected={selected}
      tabIndex={-1}
      data-index={index}
      className="search-result"
      onPointerEnter={onPointerEnter}
    >
      {result.type === 'user' || result.type === 'artist' ? (
        <Avatar name={title} picture={picture} size={40} />
      ) : picture ? (
        <img className="search-result__cover" src={picture} alt="" width={40} height={40} />
      ) : (
        <span className="search-result__cover search-result__cover--empty" aria-hidden="true" />
      )}
      <span className="search-result__texts">
        <span className="search-result__title">{title}</span>
        {detail && <span className="search-result__detail">{detail}</span>}
      </span>
    </Link>
  );
}
