import { useLocation } from 'react-router';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_PAGE_TITLE,
  PRODUCT_NAME,
  SOCIAL_CARD_PATH,
  pageTitle,
} from '@earshot/contract/site';

interface PageMetaProps {
  /** The page's own title; the document title becomes "{title} - Earshot". Omitted: the tagline. */
  title?: string;
  description?: string;
  /** Keeps the page out of search engines (error pages, login). */
  noindex?: boolean;
  /** The page's preferred path when several lead to it (a profile by id or by username). */
  canonicalPath?: string;
  /**
   * The social card's picture (absolute, or a path on this site), shown as a small square
   * card; Earshot's large card when omitted or null.
   */
  image?: string | null;
  /** The Open Graph type: `profile` for a person's page. */
  type?: 'website' | 'profile';
  /** schema.org data about the page, published as JSON-LD. */
  structuredData?: Record<string, unknown>;
}

/** JSON for an inline script: `<` escaped so no text can close the script element. */
function jsonForScript(data: Record<string, unknown>): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/**
 * The page's title, description, canonical link and social-card metadata, hoisted into
 * `<head>` by React. Render exactly one per page.
 */
export function PageMeta({
  title,
  description = DEFAULT_DESCRIPTION,
  noindex = false,
  canonicalPath,
  image = null,
  type = 'website',
  structuredData,
}: PageMetaProps) {
  const { pathname } = useLocation();
  const fullTitle = title === undefined ? DEFAULT_PAGE_TITLE : pageTitle(title);
  const { origin } = window.location;
  const url = `${origin}${canonicalPath ?? pathname}`;
  const imageUrl = new URL(image ?? SOCIAL_CARD_PATH, origin).href;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content={type} />
      <meta property="og:site_name" content={PRODUCT_NAME} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={imageUrl} />
      <meta name="twitter:card" content={image === null ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={imageUrl} />
      {noindex && <meta name="robots" content="noindex" />}
      {structuredData && (
        <script type="application/ld+json">{jsonForScript(structuredData)}</script>
      )}
    </>
  );
}
