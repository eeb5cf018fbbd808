/**
 * The plans the catalogue's stages hand each other: an artist drafted before it becomes an Artist,
 * and the releases planned for it before they become albums and tracks. Kept apart so the stages
 * (artists, release plan, builder) depend on this vocabulary rather than on one another.
 */
import type { ActStyle, GenreFamily, NameFlavour } from '../genres';
import type { Album, AlbumKind, ReleaseDatePrecision, Track } from '../model';

/** Releases span these years; the world's clock may be anywhere after. */
export const FIRST_RELEASE_YEAR = 1966;
export const LAST_RELEASE_YEAR = 2025;

type ReleaseRole = 'original' | 'lead-single' | 'remaster' | 'compilation' | 'live';

export interface ReleaseDraft {
  role: ReleaseRole;
  kind: AlbumKind;
  date: number;
  precision: ReleaseDatePrecision;
  /** Tracks of new recordings (originals, lead singles' B-sides, remasters' bonus tracks). */
  count: number;
  /** The album a lead single or remaster is taken from. */
  source?: ReleaseDraft;
  partner?: number;
  album?: Album;
  /** New recordings made for this release, with their popularity. */
  recordings: Track[];
  remastered?: boolean;
}

export interface ArtistDraft {
  index: number;
  family: GenreFamily;
  familyIndex: number;
  flavour: NameFlavour;
  act: ActStyle;
  name: string;
  debut: number;
  end: number;
  popularity: number;
  country: string;
  labels: string[];
  explicitness: number;
  releases: ReleaseDraft[];
}

export function yearOf(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
