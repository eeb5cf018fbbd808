import type { SandboxAccount } from './account';

/**
 * The people of the sandbox: who they are (fixed, so demos and tests can name them) and the
 * persona their generated taste and listening follow. Everything else about them (favourite
 * artists, playlists, plays, likes) is generated from the world's seed.
 */
export interface DemoPersona {
  /** IANA time zone of where they live: their day starts and ends there. */
  timeZone: string;
  /** Genre families (`genres.ts`) their taste is drawn from, the main one first. */
  families: readonly string[];
  /** Plays on an average day. */
  dailyPlays: number;
  /** Share of plays outside their favourite artists (0–1). */
  discoveryRate: number;
  /** Hours their listening day runs late (night owls, positive) or early (negative). */
  dayShiftHours: number;
}

export interface DemoPerson {
  account: SandboxAccount;
  persona: DemoPersona;
}

const noFilter = { filterEnabled: false, filterLocked: false };

/** Mostly premium; Aiko, Priya and Lukas are on the free plan. */
export const DEMO_PEOPLE: readonly DemoPerson[] = [
  {
    account: {
      id: 'maralindqvist',
      accountId: 'Qm7tR2vLx9',
      displayName: 'Mara Lindqvist',
      email: 'mara.lindqvist@example.com',
      product: 'premium',
      country: 'SE',
      followers: 214,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Europe/Stockholm',
      families: ['pop', 'folk', 'electronic'],
      dailyPlays: 45,
      discoveryRate: 0.3,
      dayShiftHours: 0,
    },
  },
  {
    account: {
      id: '31kzt4wq7yv2jhd6ncx3bfrm5lpa',
      accountId: 'bT4nW8cKe2',
      displayName: 'Tomás Ferreira',
      email: 'tomas.ferreira@example.com',
      product: 'premium',
      country: 'PT',
      followers: 58,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Europe/Lisbon',
      families: ['lusophone', 'rock', 'jazz'],
      dailyPlays: 32,
      discoveryRate: 0.2,
      dayShiftHours: 1,
    },
  },
  {
    account: {
      id: '11183207465',
      accountId: 'Hx2pD6gZs5',
      displayName: 'Aiko Tanaka',
      email: 'aiko.tanaka@example.com',
      product: 'free',
      country: 'JP',
      followers: 12,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Asia/Tokyo',
      families: ['east asian', 'electronic', 'pop'],
      dailyPlays: 28,
      discoveryRate: 0.35,
      dayShiftHours: 1,
    },
  },
  {
    account: {
      id: 'chidiokafor',
      accountId: 'Lr9eY3uNa7',
      displayName: 'Chidi Okafor',
      email: 'chidi.okafor@example.com',
      product: 'premium',
      country: 'NG',
      followers: 1032,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Africa/Lagos',
      families: ['african', 'hip hop', 'r&b'],
      dailyPlays: 60,
      discoveryRate: 0.25,
      dayShiftHours: 2,
    },
  },
  {
    account: {
      id: '31ugbq6xn2r7cfy4d5kzsmhwtaoe',
      accountId: 'Fv5jS1mQc8',
      displayName: 'Priya Raman',
      email: 'priya.raman@example.com',
      product: 'free',
      country: 'IN',
      followers: 7,
      explicitContent: { filterEnabled: true, filterLocked: false },
    },
    persona: {
      timeZone: 'Asia/Kolkata',
      families: ['south asian', 'pop', 'r&b'],
      dailyPlays: 24,
      discoveryRate: 0.3,
      dayShiftHours: 0,
    },
  },
  {
    account: {
      id: 'jonasbrandt',
      accountId: 'Wd8kB4hTy6',
      displayName: 'Jonas Brandt',
      email: 'jonas.brandt@example.com',
      product: 'premium',
      country: 'DE',
      followers: 89,
      explicitContent: { filterEnabled: true, filterLocked: true },
    },
    persona: {
      timeZone: 'Europe/Berlin',
      families: ['electronic', 'classical', 'european'],
      dailyPlays: 38,
      discoveryRate: 0.4,
      dayShiftHours: -1,
    },
  },
  {
    account: {
      id: 'sofiamtz',
      accountId: 'Ka3vN7pRw1',
      displayName: 'Sofía Martínez',
      email: 'sofia.martinez@example.com',
      product: 'premium',
      country: 'MX',
      followers: 342,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'America/Mexico_City',
      families: ['latin', 'pop', 'r&b'],
      dailyPlays: 50,
      discoveryRate: 0.2,
      dayShiftHours: 1,
    },
  },
  {
    account: {
      id: '31h7cxwqz3m5kv2pn8dytbrj4lsa',
      accountId: 'Yt6mC2sXf9',
      displayName: 'Kwame Mensah',
      email: 'kwame.mensah@example.com',
      product: 'premium',
      country: 'GH',
      followers: 131,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Africa/Accra',
      families: ['african', 'caribbean', 'hip hop'],
      dailyPlays: 40,
      discoveryRate: 0.3,
      dayShiftHours: 1,
    },
  },
  {
    account: {
      id: 'ethanbrooks',
      accountId: 'Pz4hL8dGq3',
      displayName: 'Ethan Brooks',
      email: 'ethan.brooks@example.com',
      product: 'premium',
      country: 'US',
      followers: 77,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'America/Chicago',
      families: ['rock', 'folk', 'metal'],
      dailyPlays: 35,
      discoveryRate: 0.15,
      dayShiftHours: 0,
    },
  },
  {
    account: {
      id: '31pd8vnx2kq6wzr4tyc7mhjb5gfe',
      accountId: 'Rb9wE5kTn2',
      displayName: 'Seo-yeon Park',
      email: 'seoyeon.park@example.com',
      product: 'premium',
      country: 'KR',
      followers: 268,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Asia/Seoul',
      families: ['east asian', 'r&b', 'pop'],
      dailyPlays: 65,
      discoveryRate: 0.25,
      dayShiftHours: 2,
    },
  },
  {
    account: {
      id: 'camilledubois',
      accountId: 'Gm2xQ7vJc4',
      displayName: 'Camille Dubois',
      email: 'camille.dubois@example.com',
      product: 'premium',
      country: 'FR',
      followers: 45,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Europe/Paris',
      families: ['european', 'jazz', 'electronic'],
      dailyPlays: 30,
      discoveryRate: 0.45,
      dayShiftHours: 0,
    },
  },
  {
    account: {
      id: '12168805723',
      accountId: 'Nc5tH1bWz8',
      displayName: 'Lukas Novák',
      email: 'lukas.novak@example.com',
      product: 'free',
      country: 'CZ',
      followers: 19,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Europe/Prague',
      families: ['metal', 'rock', 'electronic'],
      dailyPlays: 26,
      discoveryRate: 0.2,
      dayShiftHours: 2,
    },
  },
  {
    account: {
      id: 'rafasouza',
      accountId: 'Vx8rM3gKd6',
      displayName: 'Rafael Souza',
      email: 'rafael.souza@example.com',
      product: 'premium',
      country: 'BR',
      followers: 512,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'America/Sao_Paulo',
      families: ['lusophone', 'electronic', 'hip hop'],
      dailyPlays: 55,
      discoveryRate: 0.3,
      dayShiftHours: 1,
    },
  },
  {
    account: {
      id: '31xt5bgq9rwn3yk7dzf2cjv6hpam',
      accountId: 'Jw7pS4nLa5',
      displayName: 'Olivia Bennett',
      email: 'olivia.bennett@example.com',
      product: 'premium',
      country: 'GB',
      followers: 903,
      explicitContent: noFilter,
    },
    persona: {
      timeZone: 'Europe/London',
      families: ['pop', 'r&b', 'hip hop'],
      dailyPlays: 80,
      discoveryRate: 0.35,
      dayShiftHours: 0,
    },
  },
];

/** Who can log in to the sandbox, in the order the authorization page lists them. */
export const DEMO_ACCOUNTS: readonly SandboxAccount[] = DEMO_PEOPLE.map(({ account }) => account);

/**
 * Who is friends with whom on Earshot, for the demo: Earshot (not the sandbox, Spotify has no
 * friendships) creates these between the demo users it knows. `accepted` pairs are mutual friends;
 * `pending` ones are a request from `from` that `to` has not answered yet. Ids are sandbox account
 * ids. Every account has at least one friend; Mara, the default demo account, has two requests
 * waiting.
 */
export interface DemoFriendship {
  from: string;
  to: string;
  state: 'accepted' | 'pending';
}

const MARA = 'maralindqvist';
const TOMAS = '31kzt4wq7yv2jhd6ncx3bfrm5lpa';
const AIKO = '11183207465';
const CHIDI = 'chidiokafor';
const PRIYA = '31ugbq6xn2r7cfy4d5kzsmhwtaoe';
const JONAS = 'jonasbrandt';
const SOFIA = 'sofiamtz';
const KWAME = '31h7cxwqz3m5kv2pn8dytbrj4lsa';
const ETHAN = 'ethanbrooks';
const SEOYEON = '31pd8vnx2kq6wzr4tyc7mhjb5gfe';
const CAMILLE = 'camilledubois';
const LUKAS = '12168805723';
const RAFAEL = 'rafasouza';
const OLIVIA = '31xt5bgq9rwn3yk7dzf2cjv6hpam';

export const DEMO_FRIENDSHIPS: readonly DemoFriendship[] = [
  { from: MARA, to: TOMAS, state: 'accepted' },
  { from: JONAS, to: MARA, state: 'accepted' },
  { from: MARA, to: OLIVIA, state: 'accepted' },
  { from: CAMILLE, to: MARA, state: 'accepted' },
  { from: TOMAS, to: RAFAEL, state: 'accepted' },
  { from: CHIDI, to: KWAME, state: 'accepted' },
  { from: OLIVIA, to: CHIDI, state: 'accepted' },
  { from: AIKO, to: SEOYEON, state: 'accepted' },
  { from: PRIYA, to: OLIVIA, state: 'accepted' },
  { from: ETHAN, to: OLIVIA, state: 'accepted' },
  { from: CAMILLE, to: JONAS, state: 'accepted' },
  { from: SOFIA, to: RAFAEL, state: 'accepted' },
  { from: ETHAN, to: SOFIA, state: 'accepted' },
  { from: LUKAS, to: ETHAN, state: 'accepted' },
  { from: CHIDI, to: MARA, state: 'pending' },
  { from: SEOYEON, to: MARA, state: 'pending' },
  { from: LUKAS, to: JONAS, state: 'pending' },
  { from: PRIYA, to: AIKO, state: 'pending' },
  { from: MARA, to: SOFIA, state: 'pending' },
  { from: KWAME, to: RAFAEL, state: 'pending' },
];
