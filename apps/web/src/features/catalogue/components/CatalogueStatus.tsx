import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { NotFoundStatusPage, StatusPage } from '../../../components/ui/StatusPage';
import { ApiError } from '../../../lib/apiClient';
import { catalogueNotFoundTitle, type CatalogueEntity } from '@earshot/contract/catalogue-meta';

const NOT_FOUND_MESSAGES: Record<CatalogueEntity, string> = {
  Track:
    'Spotify has no track at this address. The link may be mistyped, or the track was removed.',
  Artist: 'Spotify has no artist at this address. The link may be mistyped.',
  Album:
    'Spotify has no album at this address. The link may be mistyped, or the album was removed.',
  Playlist:
    'There is no playlist at this address. It may have been deleted, or the link may be mistyped.',
};

/** "Track Not Found" and the others (docs/product.md, "Not-found pages"). */
export function CatalogueNotFound({ entity }: { entity: CatalogueEntity }) {
  return (
    <NotFoundStatusPage
      title={catalogueNotFoundTitle(entity)}
      message={NOT_FOUND_MESSAGES[entity]}
    />
  );
}

interface CatalogueQueryProps<T> {
  query: UseQueryResult<T>;
  entity: CatalogueEntity;
  /** The failure title: "Failed to load album details". */
  failureTitle: string;
  /** A page of its own for statuses other than 404 (the private playlist's 403). */
  renderRefusal?: (error: ApiError) => ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * A detail page's loading, not-found and failure states, then the page itself. Load errors show
 * the server's message (docs/product.md, "The error catalogue").
 */
export function CatalogueQuery<T>({
  query,
  entity,
  failureTitle,
  renderRefusal,
  children,
}: CatalogueQueryProps<T>) {
  if (query.isPending) {
    return (
      <>
        <PageMeta title={entity} />
        <LoadingState />
      </>
    );
  }
  if (query.isError) {
    const { error } = query;
    if (error instanceof ApiError && error.status === 404) {
      return <CatalogueNotFound entity={entity} />;
    }
    if (error instanceof ApiError && renderRefusal) {
      const refusal = renderRefusal(error);
      if (refusal) return refusal;
    }
    return (
      <StatusPage title={failureTitle} role="alert">
        <p className="status-page__message">{error.message}</p>
        <button
          type="button"
          className="button button--primary"
          disabled={query.isFetching}
          onClick={() => void query.refetch()}
        >
          Retry
        </button>
      </StatusPage>
    );
  }
  return <>{children(query.data)}</>;
}

/** Says the page shows what Earshot has stored, and why (Spotify could not fill it in). */
export function CatalogueNotice({ notice }: { notice: string | null }) {
  if (notice === null) return null;
  return (
    <p className="catalogue-notice" role="status">
      {notice}
    </p>
  );
}

/** A square cover, or a plain square when there is none. */
export function Cover({
  picture,
  size,
  label,
}: {
  picture: string | null;
  size: number;
  label?: string;
}) {
  if (picture) {
    return (
      <img
        className="catalogue-cover"
        src={picture}
        alt={label ?? ''}
        width={size}
        height={size}
        loading="lazy"
      />
    );
  }
  return (
    <span
      className="catalogue-cover catalogue-cover--empty"
      style={{ width: size, height: size }}
      aria-hidden="true"
    />
  );
}
