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
  /** 'lazy' in long lists: covers below the fold wait until they are scrolled near. */
  loading?: 'lazy';
}) {
  if (!picture) return <span className={className} aria-hidden="true" />;
  return (
    <img className={className} src={picture} alt="" width={size} height={size} loading={loading} />
  );
}
