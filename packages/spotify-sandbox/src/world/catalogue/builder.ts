/**
 * Builds albums and tracks from the release plans: titles, credits, durations, ISRCs and UPCs, and
 * how reissues (lead singles, remasters, compilations) share recordings with the originals.
 */
import { GENRE_FAMILIES } from '../genres';
import type { Album, Artist, Copyright, ReleaseDatePrecision, Track } from '../model';
import {
  albumTitle,
  classicalAlbumTitle,
  classicalPiece,
  compilationTitle,
  liveAlbumTitle,
  songTitle,
} from '../names';
import type { Random } from '../random';
import { clamp, yearOf, type ArtistDraft, type ReleaseDraft } from './drafts';
import { registrantCode, upcCheckDigit, type IdMaker } from './ids';

/** Turns the release plans into albums and tracks, in release order per artist. */
export class CatalogueBuilder {
  /** What is built so far, in build order (an album's tracks are adjacent). */
  readonly albums: Album[] = [];
  readonly tracks: Track[] = [];
  private readonly isrcSerials = new Map<string, number>();
  private readonly upcs = new Set<string>();
  private readonly familyArtists: number[][];
  private readonly artistById: Map<string, Artist>;

  constructor(
    private readonly random: Random,
    private readonly ids: IdMaker,
    drafts: readonly ArtistDraft[],
    private readonly artists: Artist[],
  ) {
    this.familyArtists = GENRE_FAMILIES.map(() => []);
    for (const draft of drafts) this.familyArtists[draft.familyIndex]?.push(draft.index);
    this.artistById = new Map(artists.map((artist) => [artist.id, artist]));
  }

  buildNewRecordings(draft: ArtistDraft): void {
    for (const release of draft.releases) {
      if (release.role === 'original') this.buildOriginal(draft, release);
      else if (release.role === 'live') this.buildLive(draft, release);
    }
  }

  buildReissues(draft: ArtistDraft): void {
    for (const release of draft.releases) {
      if (release.role === 'lead-single') this.buildLeadSingle(draft, release);
      else if (release.role === 'remaster') this.buildRemaster(draft, release);
      else if (release.role === 'compilation') this.buildCompilation(draft, release);
    }
  }

  private buildOriginal(draft: ArtistDraft, release: ReleaseDraft): void {
    const { random } = this;
    const classical = draft.family.titles === 'classical';
    const titles = classical
      ? classicalTitles(random, release.count)
      : this.songTitles(draft, release.count);
    const name =
      release.kind === 'single'
        ? (titles[0] as string)
        : classical
          ? classicalAlbumTitle(random, draft.name.split(' ').slice(-1)[0] ?? draft.name)
          : release.kind === 'album' && draft.releases[0] === release && random.chance(0.12)
            ? draft.name
            : albumTitle(random, draft.family.titles === 'spanish' ? 'spanish' : 'english');
    const album = this.newAlbum(draft, release, name);
    for (const title of titles) this.addRecording(draft, release, album, title);
    this.finishAlbum(album);
  }

  private buildLive(draft: ArtistDraft, release: ReleaseDraft): void {
    const { random } = this;
    const album = this.newAlbum(draft, release, liveAlbumTitle(random, draft.flavour));
    const earlier = draft.releases
      .filter((other) => other.date < release.date && other.role === 'original')
      .flatMap((other) => other.recordings);
    for (let index = 0; index < release.count; index++) {
      const title =
        earlier.length > 0
          ? `${baseTitle(random.pick(earlier).name)} - Live`
          : (this.songTitles(draft, 1)[0] as string);
      this.addRecording(draft, release, album, title);
    }
    this.finishAlbum(album);
  }

  private buildLeadSingle(draft: ArtistDraft, release: ReleaseDraft): void {
    const lead = this.random.pick(sourceOf(release).recordings.slice(0, 5));
    const album = this.newAlbum(draft, release, lead.name);
    this.addCopy(album, lead, lead.name, Math.min(100, lead.popularity + this.random.int(-12, 2)));
    for (let index = 0; index < release.count; index++) {
      this.addRecording(draft, release, album, this.songTitles(draft, 1)[0] as string);
    }
    this.finishAlbum(album);
  }

  private buildRemaster(draft: ArtistDraft, release: ReleaseDraft): void {
    const source = sourceOf(release);
    const year = yearOf(release.date);
    const deluxe = this.random.chance(0.3);
    const album = this.newAlbum(
      draft,
      release,
      `${source.album?.name ?? ''} (${deluxe ? 'Deluxe Edition' : `${year} Remaster`})`,
    );
    for (const recording of source.recordings) {
      // The remaster is what people stream now; the original release fades.
      const popularity = clamp(recording.popularity + this.random.int(0, 12), 0, 100);
      recording.popularity = clamp(recording.popularity - this.random.int(5, 15), 0, 100);
      this.addCopy(
        album,
        recording,
        deluxe ? recording.name : `${recording.name} - Remastered ${year}`,
        popularity,
      );
    }
    for (let index = 0; index < release.count; index++) {
      const original = this.random.pick(source.recordings);
      const take = this.random.pick([
        'Demo',
        'Alternate Take',
        'Live',
        'Early Version',
        'Acoustic',
      ]);
      this.addRecording(draft, release, album, `${baseTitle(original.name)} - ${take}`);
    }
    this.finishAlbum(album);
  }

  private buildCompilation(draft: ArtistDraft, release: ReleaseDraft): void {
    const { random } = this;
    const earlier = draft.releases.filter(
      (other) => other.date < release.date && (other.role === 'original' || other.role === 'live'),
    );
    const pool = earlier.flatMap((other) => other.recordings);
    const chosen = pool
      .slice()
      .sort((a, b) => b.popularity - a.popularity)
      .slice(0, release.count)
      .sort((a, b) => pool.indexOf(a) - pool.indexOf(b));
    const firstYear = yearOf(earlier[0]?.date ?? release.date);
    const lastYear = yearOf(earlier[earlier.length - 1]?.date ?? release.date);
    const album = this.newAlbum(
      draft,
      release,
      compilationTitle(random, draft.name, firstYear, lastYear),
    );
    const remastered = random.chance(0.25) ? yearOf(release.date) : 0;
    for (const recording of chosen) {
      const name = remastered ? `${recording.name} - ${remastered} Remaster` : recording.name;
      this.addCopy(album, recording, name, clamp(recording.popularity - random.int(3, 15), 0, 100));
    }
    this.finishAlbum(album);
  }

  private songTitles(draft: ArtistDraft, count: number): string[] {
    const style = draft.family.titles === 'spanish' ? 'spanish' : 'english';
    const titles = new Set<string>();
    for (let attempt = 0; titles.size < count && attempt < count * 10; attempt++) {
      titles.add(songTitle(this.random, style));
    }
    while (titles.size < count)
      titles.add(`${songTitle(this.random, style)} (Part ${titles.size + 1})`);
    return [...titles];
  }

  private newAlbum(draft: ArtistDraft, release: ReleaseDraft, name: string): Album {
    const { random } = this;
    const artistIds = [(this.artists[draft.index] as Artist).id];
    if (release.partner !== undefined) artistIds.push((this.artists[release.partner] as Artist).id);
    const { text, releasedAt } = formatReleaseDate(release.date, release.precision);
    const label = random.pick(draft.labels);
    const year = yearOf(release.date);
    const copyrights: Copyright[] = [
      { text: `© ${year} ${label}`, type: 'C' },
      { text: `℗ ${year} ${label}`, type: 'P' },
    ];
    const album: Album = {
      id: this.ids.next(),
      name,
      kind: release.kind,
      albumType: release.kind === 'ep' ? 'single' : release.kind,
      artistIds,
      releaseDate: text,
      releaseDatePrecision: release.precision,
      releasedAt,
      label,
      upc: this.upc(),
      copyrights,
      popularity: 0,
      trackIds: [],
    };
    release.album = album;
    return album;
  }

  private finishAlbum(album: Album): void {
    const trackIds = album.trackIds as string[];
    const count = trackIds.length;
    const discs = count > 20 ? 2 : 1;
    const perDisc = Math.ceil(count / discs);
    let popularity = 0;
    for (let index = 0; index < count; index++) {
      const track = this.tracks[this.tracks.length - count + index] as Track;
      track.discNumber = 1 + Math.floor(index / perDisc);
      track.trackNumber = 1 + (index % perDisc);
      popularity = Math.max(popularity, track.popularity);
    }
    album.popularity = clamp(popularity - this.random.int(0, 6), 0, 100);
    this.albums.push(album);
    for (const artistId of album.artistIds) {
      (this.artistById.get(artistId)?.albumIds as string[] | undefined)?.push(album.id);
    }
  }

  private addRecording(
    draft: ArtistDraft,
    release: ReleaseDraft,
    album: Album,
    title: string,
  ): void {
    const { random } = this;
    const family = draft.family;
    const [mean, spread] = family.durationSec;
    const seconds = clamp(
      random.normal(mean, spread),
      75,
      family.titles === 'classical' ? 1500 : 900,
    );
    const artistIds = [...album.artistIds];
    let name = title;
    const featureRate =
      { 'hip hop': 0.25, latin: 0.25, african: 0.2, 'r&b': 0.15, pop: 0.12, electronic: 0.15 }[
        family.name
      ] ?? 0.03;
    const peers = this.familyArtists[draft.familyIndex] ?? [];
    if (peers.length > 1 && random.chance(featureRate)) {
      const guest = this.artists[random.pick(peers)] as Artist;
      if (!artistIds.includes(guest.id)) {
        artistIds.push(guest.id);
        if (random.chance(0.5)) name = `${title} (feat. ${guest.name})`;
      }
    }
    const position = album.trackIds.length;
    const popularity = clamp(
      Math.round(
        draft.popularity +
          random.normal(0, 9) -
          position * 0.8 +
          (release.kind === 'single' ? 4 : 0),
      ),
      0,
      100,
    );
    const track: Track = {
      id: this.ids.next(),
      name,
      albumId: album.id,
      artistIds,
      discNumber: 1,
      trackNumber: 1,
      durationMs: Math.round(seconds * 1000) + random.int(0, 999),
      explicit: random.chance(draft.explicitness),
      popularity,
      isrc: this.isrc(draft, release),
    };
    this.tracks.push(track);
    (album.trackIds as string[]).push(track.id);
    release.recordings.push(track);
  }

  private addCopy(album: Album, recording: Track, name: string, popularity: number): void {
    const track: Track = {
      ...recording,
      id: this.ids.next(),
      name,
      albumId: album.id,
      popularity,
    };
    this.tracks.push(track);
    (album.trackIds as string[]).push(track.id);
  }

  /** CC-XXX-YY-NNNNN without dashes: country, registrant (the label's), year, serial. */
  private isrc(draft: ArtistDraft, release: ReleaseDraft): string {
    const label = draft.labels[0] ?? 'label';
    const registrant = registrantCode(label);
    const prefix = `${draft.country}${registrant}${String(yearOf(release.date) % 100).padStart(2, '0')}`;
    const serial = (this.isrcSerials.get(prefix) ?? 0) + 1 + this.random.int(0, 40);
    this.isrcSerials.set(prefix, serial);
    return `${prefix}${String(serial % 100_000).padStart(5, '0')}`;
  }

  private upc(): string {
    for (;;) {
      const body = `${this.random.pick(['0', '1', '8'])}${this.random.chars('0123456789', 10)}`;
      const upc = body + upcCheckDigit(body);
      if (!this.upcs.has(upc)) {
        this.upcs.add(upc);
        return upc;
      }
    }
  }
}

function sourceOf(release: ReleaseDraft): ReleaseDraft {
  if (!release.source?.album)
    throw new Error('spotify-sandbox: a reissue was built before its source');
  return release.source;
}

function classicalTitles(random: Random, count: number): string[] {
  const titles: string[] = [];
  while (titles.length < count) {
    const piece = classicalPiece(random);
    if (piece.movements.length === 0) titles.push(piece.title);
    for (const movement of piece.movements) {
      if (titles.length < count) titles.push(`${piece.title}: ${movement}`);
    }
  }
  return titles;
}

/** A title without a " - Live" or " (feat. …)" style suffix. */
function baseTitle(name: string): string {
  return name.replace(/ \(feat\. .*\)$/, '').replace(/ - .*$/, '');
}

function formatReleaseDate(ms: number, precision: ReleaseDatePrecision) {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const pad = (value: number) => String(value).padStart(2, '0');
  switch (precision) {
    case 'year':
      return { text: String(year), releasedAt: Date.UTC(year, 0, 1) };
    case 'month':
      return { text: `${year}-${pad(month + 1)}`, releasedAt: Date.UTC(year, month, 1) };
    case 'day':
      return {
        text: `${year}-${pad(month + 1)}-${pad(day)}`,
        releasedAt: Date.UTC(year, month, day),
      };
  }
}
