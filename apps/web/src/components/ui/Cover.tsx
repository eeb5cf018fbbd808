/** An album cover, or an empty square in its place when there is none (same class, same size). */
export function Cover({
  className,
  picture,
  size,
  loading,
}: {
  className: string;
  picture: string | null | undefined;
  /** Width and height in pixels, reserved before the image loads. */
  size?: number;
  /**
   * 'lazy' in long lists: covers below the fold wait until they are scrolled near, and those in
   * view are fetched at low priority, behind the code and answers the list's text needs
   * (decision 0048).
   */
  loading?: 'lazy';
}) {
  if (!picture) return <span className={className} aria-hidden="true" />;
  return (
    <img
      className={className}
      src={picture}
      alt=""
      width={size}
      height={size}
      loading={loading}
      fetchPriority={loading === 'lazy' ? 'low' : undefined}
    />
  );
}
