import { hash32, hashString, Random } from '../world/random';

/**
 * Podcasts and audiobooks for the exports. The world's catalogue is music only, but real exports
 * mix episode and chapter rows in, so the exports keep a small spoken catalogue of their own,
 * generated from the world's seed: shows with numbered episodes on a schedule, and audiobooks
 * with chapters. URIs follow the Web API's: episodes and chapters are `spotify:episode:`,
 * shows and audiobooks `spotify:show:`.
 */

export interface Show {
  id: string;
  name: string;
  publisher: string;
  /** When the first episode came out. */
  launchedAt: number;
  /** Days between episodes (1 for daily news). */
  cadenceDays: number;
  news: boolean;
  /** Video podcasts: their plays go to the `Streaming_History_Video_*` files. */
  video: boolean;
  minMinutes: number;
  maxMinutes: number;
}

export interface Episode {
  show: Show;
  uri: string;
  name: string;
  durationMs: number;
}

export interface Audiobook {
  id: string;
  title: string;
  author: string;
  chapters: number;
}

export interface Chapter {
  book: Audiobook;
  uri: string;
  title: string;
  durationMs: number;
}

const SHOW_COUNT = 48;
const AUDIOBOOK_COUNT = 24;
const DAY_MS = 86_400_000;

const FIRST_NAMES = [
  'Ada',
  'Bea',
  'Cole',
  'Dana',
  'Emeka',
  'Farah',
  'Gus',
  'Hana',
  'Ines',
  'Jonah',
  'Kofi',
  'Lale',
  'Mira',
  'Nils',
  'Oona',
  'Priya',
  'Rafa',
  'Sunny',
  'Tove',
  'Uma',
  'Vik',
  'Wes',
  'Yara',
  'Zeno',
] as const;
const SURNAMES = [
  'Abara',
  'Bergstrom',
  'Castell',
  'Duarte',
  'Eklund',
  'Fontaine',
  'Garland',
  'Holm',
  'Iwata',
  'Jovanovic',
  'Kaur',
  'Lindgren',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Pereira',
  'Quist',
  'Rahman',
  'Sato',
  'Takahashi',
  'Ueda',
  'Varga',
  'Whitlock',
  'Yilmaz',
] as const;
const SUBJECTS = [
  'Science',
  'History',
  'Money',
  'Comedy',
  'Football',
  'Film',
  'Design',
  'Mindfulness',
  'True Crime',
  'Cooking',
  'Language',
  'Tech',
  'Parenting',
  'Music',
  'Books',
  'Travel',
] as const;
const NOUNS = [
  'Attention',
  'Habits',
  'Rivers',
  'Small Talk',
  'Sleep',
  'Cities',
  'Luck',
  'Silence',
  'Rent',
  'Memory',
  'Friendship',
  'Deadlines',
  'Coffee',
  'Maps',
  'Weather',
  'Ghosts',
  'Patience',
  'Vinyl',
  'Trains',
  'Winter',
  'Boredom',
  'Envy',
  'Gardens',
  'Robots',
] as const;
const VERBS = [
  'Unlearn',
  'Rethink',
  'Survive',
  'Explain',
  'Measure',
  'Forgive',
  'Start',
  'Quit',
  'Fix',
  'Notice',
] as const;
const PUBLISHERS = ['Sandbox Studios', 'Lantern Audio', 'Harbour Podcasts', 'Quiet Room Media'];
const BOOK_WORDS = [
  'Salt',
  'Orchard',
  'Glass',
  'Harbour',
  'Lanterns',
  'Comet',
  'Winter',
  'Island',
  'Atlas',
  'Ember',
  'Meridian',
  'Paper',
  'Thunder',
  'Hollow',
  'Summer',
  'Cartographer',
] as const;

function person(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(SURNAMES)}`;
}

function showName(random: Random, host: string, subject: string): { name: string; news: boolean } {
  switch (random.int(0, 6)) {
    case 0:
      return { name: `${subject} News Now`, news: true };
    case 1:
      return { name: `The ${subject} Hour`, news: false };
    case 2:
      return { name: `${random.pick(NOUNS)} & ${random.pick(NOUNS)}`, news: false };
    case 3:
      return { name: `${host.split(' ')[0] ?? host} Talks ${subject}`, news: false };
    case 4:
      return { name: `Everything About ${random.pick(NOUNS)}`, news: false };
    case 5:
      return { name: `${subject}, Slowly`, news: false };
    default:
      return { name: `The ${random.pick(NOUNS)} Podcast`, news: false };
  }
}

function topic(random: Random): string {
  switch (random.int(0, 4)) {
    case 0:
      return `How to ${random.pick(VERBS)} ${random.pick(NOUNS)}`;
    case 1:
      return `The Psychology of ${random.pick(NOUNS)}`;
    case 2:
      return `${random.pick(NOUNS)}, with ${person(random)}`;
    case 3:
      return `Why We ${random.pick(VERBS)} ${random.pick(NOUNS)}`;
    default:
      return `${random.pick(NOUNS)} and ${random.pick(NOUNS)}`;
  }
}

function episodeName(random: Random, show: Show, number: number, releasedAt: number): string {
  if (show.news) {
    const [year, month, day] = new Date(releasedAt).toISOString().slice(0, 10).split('-');
    return `${show.name}: ${month}-${day}-${year}`;
  }
  switch (random.int(0, 3)) {
    case 0:
      return `${number}. ${topic(random)}`;
    case 1:
      return `Ep. ${number}: ${topic(random)}`;
    case 2:
      return `#${number} "${topic(random)}"`;
    default:
      return topic(random);
  }
}

export class SpokenCatalogue {
  readonly shows: readonly Show[];
  readonly audiobooks: readonly Audiobook[];
  private readonly key: number;

  constructor(seed: number) {
    this.key = hash32(seed, hashString('spoken'));
    const random = new Random(this.key);
    const shows: Show[] = [];
    for (let index = 0; index < SHOW_COUNT; index++) {
      const host = person(random);
      const { name, news } = showName(random, host, random.pick(SUBJECTS));
      const minMinutes = news ? 4 : random.int(15, 40);
      shows.push({
        id: random.base62Id(),
        name,
        publisher: random.chance(0.6) ? host : random.pick(PUBLISHERS),
        launchedAt: Date.UTC(random.int(2012, 2023), random.int(0, 11), random.int(1, 28)),
        cadenceDays: news ? 1 : random.pick([7, 7, 7, 14, 3]),
        news,
        video: !news && random.chance(0.2),
        minMinutes,
        maxMinutes: news ? 6 : minMinutes + random.int(10, 60),
      });
    }
    const audiobooks: Audiobook[] = [];
    for (let index = 0; index < AUDIOBOOK_COUNT; index++) {
      const title = random.chance(0.5)
        ? `The ${random.pick(BOOK_WORDS)} ${random.pick(BOOK_WORDS)}`
        : `${random.pick(BOOK_WORDS)} of ${random.pick(NOUNS)}`;
      audiobooks.push({
        id: random.base62Id(),
        title,
        author: person(random),
        chapters: random.int(12, 48),
      });
    }
    this.shows = shows;
    this.audiobooks = audiobooks;
  }

  /** The number of the newest episode of a show out at a time; 0 before the show started. */
  latestEpisodeNumber(show: Show, atMs: number): number {
    if (atMs < show.launchedAt) return 0;
    return 1 + Math.floor((atMs - show.launchedAt) / (show.cadenceDays * DAY_MS));
  }

  /** Episode `number` (1 = the first) of a show. */
  episode(show: Show, number: number): Episode {
    const random = Random.derive(this.key, hashString(show.id), number);
    const releasedAt = show.launchedAt + (number - 1) * show.cadenceDays * DAY_MS;
    return {
      show,
      uri: `spotify:episode:${random.base62Id()}`,
      name: episodeName(random, show, number, releasedAt),
      durationMs: random.int(show.minMinutes * 60_000, show.maxMinutes * 60_000),
    };
  }

  /** Chapter `number` (1 = the first) of an audiobook. */
  chapter(book: Audiobook, number: number): Chapter {
    const random = Random.derive(this.key, hashString(book.id), number);
    return {
      book,
      uri: `spotify:episode:${random.base62Id()}`,
      title: hashString(book.id) % 2 === 0 ? `Chapter ${number}` : `Track ${number}`,
      durationMs: random.int(8 * 60_000, 40 * 60_000),
    };
  }
}
