import { useLocation } from 'react-router';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_PAGE_TITLE,
  PRODUCT_NAME,
  SOCIAL_CARD_PATH,
  pageTitle,
} from '../../lib/site';

interface PageMetaProps {
  /** The page's own title; the document title becomes "{title} - Earshot". Omitted: the tagline. */
  title?: string;
  description?: string;
  /** Keeps the page out of search engines (error pages, login). */
  noindex?: boolean;
}

/**
 * The page's title, description, canonical link and social-card metadata, hoisted into
 * `<head>` by React. Render exactly one per page.
 */
export function PageMeta({
  title,
  description = DEFAULT_DESCRIPTION,
  noindex = false,
}: PageMetaProps) {
  const { pathname } = useLocation();
  const fullTitle = title === undefined ? DEFAULT_PAGE_TITLE : pageTitle(title);
  const { origin } = window.location;
  const url = `${origin}${pathname}`;
  const image = `${origin}${SOCIAL_CARD_PATH}`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={PRODUCT_NAME} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={image} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      {noindex && <meta name="robots" content="noindex" />}
    </>
  );
}
