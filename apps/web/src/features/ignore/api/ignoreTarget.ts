/** A track (by its song uid) or an artist, as the ignore calls address them. */
export interface IgnoreTarget {
  kind: 'track' | 'artist';
  /** The track's uid or the artist's id. */
  key: string;
  /** How notifications name it. */
  name: string;
}

/** `{base}/track/{uid}` or `{base}/artist/{id}`. */
export function ignoreTargetPath(base: string, target: IgnoreTarget): string {
  return `${base}/${target.kind}/${encodeURIComponent(target.key)}`;
}
