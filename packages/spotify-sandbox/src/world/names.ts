import type { ActStyle, NameFlavour } from './genres';
import type { Random } from './random';

/**
 * Names for the catalogue: people and bands from syllables and first-name lists per flavour, song
 * and album titles from word lists and templates. All the words are the sandbox's own.
 */

interface Phonology {
  firstNames: readonly string[];
  /** Surname beginnings and endings, joined. */
  surnameStarts: readonly string[];
  surnameEnds: readonly string[];
  /** Syllables for one-word stage names. */
  syllables: readonly string[];
}

// prettier-ignore
const PHONOLOGY: Record<NameFlavour, Phonology> = {
  english: {
    firstNames: [
      'Ada', 'Ben', 'Cara', 'Dylan', 'Eli', 'Fern', 'Gideon', 'Hazel', 'Iris', 'Jude', 'Kit',
      'Lena', 'Miles', 'Nell', 'Owen', 'Piper', 'Quinn', 'Rosa', 'Silas', 'Tess', 'Wren', 'Abe',
      'June', 'Cal', 'Della', 'Frankie', 'Hollis', 'Ivy', 'Jasper', 'Lottie', 'Marlon', 'Nina',
      'Otis', 'Ruby', 'Sam', 'Theo', 'Violet', 'Walt', 'Zadie', 'Ray', 'Billie', 'Curtis', 'Etta',
      'Gus', 'Harper', 'Jolene', 'Levi', 'Maeve', 'Nash', 'Opal', 'Reggie', 'Stella', 'Toby',
    ],
    surnameStarts: [
      'Ash', 'Brad', 'Carr', 'Dun', 'Ell', 'Fair', 'Glad', 'Hart', 'Kings', 'Lang', 'Mar', 'North',
      'Pem', 'Red', 'Stan', 'Thorn', 'Wal', 'Whit', 'Bell', 'Cole', 'Fen', 'Hal', 'Mere', 'Oak',
      'Pres', 'Ren', 'Shel', 'Wes', 'Brom', 'Hol',
    ],
    surnameEnds: [
      'ley', 'ton', 'wood', 'field', 'er', 'well', 'by', 'ford', 'man', 'den', 'son', 'worth',
      'ridge', 'more', 'lock', 'ham', 'ing', 'ly', 'brook', 'wick',
    ],
    syllables: [
      'ka', 'lo', 'ra', 'mi', 'ten', 'dor', 'bel', 'ar', 'is', 'mon', 'ver', 'lin', 'sy', 'rev',
      'ox', 'ze', 'nia', 'vel', 'tro', 'kai', 'lux', 'ro', 'nev', 'o',
    ],
  },
  nordic: {
    firstNames: [
      'Astrid', 'Björn', 'Elin', 'Freja', 'Gustav', 'Hedda', 'Ingrid', 'Jonna', 'Linnea', 'Magnus',
      'Nils', 'Oskar', 'Sigrid', 'Tove', 'Ulf', 'Vilma', 'Axel', 'Ebba', 'Leif', 'Maja', 'Saga',
      'Torsten', 'Agnes', 'Henrik', 'Liv', 'Sune', 'Kaisa', 'Eero', 'Aino', 'Runa',
    ],
    surnameStarts: [
      'Berg', 'Lind', 'Sjö', 'Ek', 'Dahl', 'Holm', 'Norr', 'Ström', 'Ny', 'Sand', 'Ahl', 'Lund',
      'Fors', 'Hag', 'Kvist', 'Väst', 'Ros', 'Gran',
    ],
    surnameEnds: [
      'gren', 'qvist', 'ström', 'berg', 'lund', 'dahl', 'man', 'holm', 'vall', 'sten', 'ling',
      'by', 'borg', 'ö', 'näs',
    ],
    syllables: [
      'sig', 'rid', 'ast', 'ul', 'ja', 'fre', 'ing', 'hel', 'ga', 'tor', 'ny', 'vi', 'ka', 'lo',
      'ske', 'al', 'fjo', 'rå', 'mi', 'ne',
    ],
  },
  german: {
    firstNames: [
      'Anja', 'Bastian', 'Clara', 'Dieter', 'Emil', 'Frieda', 'Greta', 'Hannes', 'Ilse', 'Jakob',
      'Karla', 'Lotte', 'Moritz', 'Nora', 'Paul', 'Rike', 'Sven', 'Theresa', 'Uwe', 'Wanda',
      'Anton', 'Helga', 'Konrad', 'Mila', 'Jannik',
    ],
    surnameStarts: [
      'Hart', 'Wald', 'Stein', 'Brun', 'Falk', 'Lin', 'Rot', 'Schön', 'Eich', 'Wein', 'Berg',
      'Hoff', 'Kast', 'Stahl', 'Wolf', 'Adler',
    ],
    surnameEnds: [
      'mann', 'er', 'berg', 'hof', 'stein', 'ner', 'bach', 'feld', 'hardt', 'kamp', 'horst',
      'ling', 'inger',
    ],
    syllables: [
      'ha', 'ken', 'ri', 'ka', 'lo', 'frie', 'del', 'o', 'sel', 'mo', 'ra', 'tek', 'zu', 'kra',
      'vo', 'lin', 'ex', 'ta',
    ],
  },
  latin: {
    firstNames: [
      'Alejandro', 'Beatriz', 'Camila', 'Diego', 'Elena', 'Fernanda', 'Gabriel', 'Inés', 'Javier',
      'Lucía', 'Mateo', 'Natalia', 'Óscar', 'Paloma', 'Ramón', 'Sofía', 'Tomás', 'Valeria',
      'Ximena', 'Andrés', 'Carmen', 'Emilio', 'Julieta', 'Marisol', 'Rocío', 'Santiago', 'Luz',
    ],
    surnameStarts: [
      'Mor', 'Cas', 'Vil', 'Ben', 'Sal', 'Mon', 'Ri', 'Al', 'Esc', 'Val', 'Gar', 'Her', 'Olm',
      'Pal', 'Ro', 'Ca', 'Fuen', 'Lo',
    ],
    surnameEnds: [
      'ales', 'tillo', 'lalba', 'ítez', 'azar', 'tero', 'vera', 'arcón', 'obar', 'dés', 'cía',
      'rera', 'edo', 'acios', 'dríguez', 'brera', 'tes', 'pez',
    ],
    syllables: [
      'ma', 'ri', 'so', 'la', 'al', 'ba', 'va', 'lo', 'ra', 'ci', 'ta', 'men', 'ro', 'sa', 'na',
      'to', 'ca', 'mi', 'lu', 'pe', 'yo',
    ],
  },
  lusophone: {
    firstNames: [
      'Adriana', 'Bruno', 'Caetana', 'Duarte', 'Eduarda', 'Flávio', 'Gilda', 'Heitor', 'Iara',
      'João', 'Leonor', 'Marisa', 'Nuno', 'Otávio', 'Raquel', 'Simão', 'Teresa', 'Vinícius',
      'Zélia', 'Rafaela',
    ],
    surnameStarts: ['Bar', 'Cor', 'Fon', 'Gue', 'Mour', 'Pin', 'Sou', 'Tei', 'Vas', 'Ama', 'Fre'],
    surnameEnds: [
      'reto', 'reia', 'seca', 'des', 'ão', 'heiro', 'za', 'xeira', 'concelos', 'ral', 'itas',
    ],
    syllables: ['ma', 'ri', 'lu', 'ar', 'sol', 'ba', 'to', 'ca', 'ni', 'ê', 'jo', 'ra'],
  },
  japanese: {
    firstNames: [
      'Akane', 'Haruki', 'Emi', 'Kenta', 'Mio', 'Ren', 'Sakura', 'Sora', 'Takumi', 'Yui', 'Hina',
      'Daichi', 'Kaede', 'Naoki', 'Riko', 'Shun', 'Yuna', 'Asuka', 'Kazuya', 'Mei',
    ],
    surnameStarts: ['Taka', 'Naka', 'Yama', 'Mori', 'Ishi', 'Kawa', 'Fuji', 'Ao', 'Hoshi', 'Sato'],
    surnameEnds: ['hara', 'mura', 'moto', 'no', 'da', 'kawa', 'shita', 'zaki', 'yama', 'uchi'],
    syllables: [
      'a', 'ka', 'ki', 'ko', 'sa', 'shi', 'su', 'ta', 'to', 'na', 'mi', 'yu', 'ri', 'ha', 'ne',
      'mo', 'ra', 'ya', 'ke', 'ho', 'no', 'ru', 'chi', 'tsu',
    ],
  },
  korean: {
    firstNames: [
      'Min-ji', 'Seo-yeon', 'Ji-hoon', 'Hyun-woo', 'Da-eun', 'Jun-ho', 'Ha-eun', 'Soo-bin',
      'Yeon-woo', 'Eun-ji', 'Tae-yang', 'Na-ra', 'Ji-woo', 'Seung-min',
    ],
    surnameStarts: ['Kim', 'Park', 'Lee', 'Choi', 'Jung', 'Kang', 'Yoon', 'Han', 'Seo', 'Shin'],
    surnameEnds: [''],
    syllables: [
      'min', 'ji', 'hye', 'su', 'yeon', 'jun', 'seo', 'hyun', 'woo', 'ha', 'eun', 'jin', 'da',
      'bin', 'na',
    ],
  },
  'west-african': {
    firstNames: [
      'Adaeze', 'Babatunde', 'Chioma', 'Damilola', 'Ebuka', 'Folake', 'Kwabena', 'Kofi', 'Ama',
      'Nneka', 'Obinna', 'Temi', 'Yaw', 'Zainab', 'Tobi', 'Ifeoma', 'Kelechi', 'Abena', 'Seun',
      'Efua',
    ],
    surnameStarts: ['Ade', 'Oke', 'Oba', 'Nwa', 'Ola', 'Aso', 'Ogu', 'Eze', 'Bo', 'Ama'],
    surnameEnds: ['yemi', 'ke', 'femi', 'chukwu', 'wale', 'ah', 'nna', 'kwe', 'teng', 'doo', 'ola'],
    syllables: [
      'a', 'de', 'ko', 'la', 'tu', 'ba', 'yo', 'mi', 'fe', 'ni', 'wa', 'ke', 'bi', 'se', 'chi',
      'ka', 'mo',
    ],
  },
  indian: {
    firstNames: [
      'Aarav', 'Ananya', 'Arjun', 'Diya', 'Ishaan', 'Kavya', 'Meera', 'Nikhil', 'Pooja', 'Rohan',
      'Saanvi', 'Tara', 'Vikram', 'Zoya', 'Kabir', 'Nandini', 'Rhea', 'Siddharth',
    ],
    surnameStarts: ['Ra', 'Sha', 'Me', 'Kri', 'Bha', 'Cha', 'De', 'Iye', 'Ka', 'Su'],
    surnameEnds: ['man', 'rma', 'hta', 'shnan', 'tia', 'wla', 'sai', 'ngar', 'poor', 'bramaniam'],
    syllables: [
      'a', 'ru', 'ni', 'sha', 'ra', 'vi', 'ka', 'ya', 'de', 'va', 'an', 'ja', 'li', 'ma', 'sun',
      'dar',
    ],
  },
  french: {
    firstNames: [
      'Amélie', 'Bastien', 'Céleste', 'Damien', 'Élodie', 'Fleur', 'Gaspard', 'Hélène', 'Jules',
      'Léa', 'Manon', 'Noé', 'Odile', 'Rémi', 'Solène', 'Théo', 'Yvette', 'Margaux', 'Lucien',
    ],
    surnameStarts: ['Beau', 'Char', 'Dela', 'Fon', 'Gar', 'Lam', 'Mar', 'Ro', 'Ver', 'Mont', 'Bel'],
    surnameEnds: [
      'mont', 'bert', 'croix', 'taine', 'nier', 'bert', 'ceau', 'chard', 'rier', 'lin', 'lac',
    ],
    syllables: ['lu', 'mi', 'é', 'ro', 'sa', 'ne', 'ca', 'li', 'or', 'fé', 'zo', 'ma'],
  },
};

// prettier-ignore
const NOUNS = [
  'Heart', 'River', 'Light', 'Night', 'Fire', 'Rain', 'Ocean', 'Shadow', 'Dream', 'Mirror',
  'Garden', 'Highway', 'Window', 'Island', 'Harbour', 'Signal', 'Echo', 'Ghost', 'Summer',
  'Winter', 'Horizon', 'Satellite', 'Engine', 'Paper', 'Velvet', 'Thunder', 'Lantern', 'Compass',
  'Coast', 'Desert', 'Forest', 'Mountain', 'Valley', 'Glass', 'Silver', 'Gold', 'Stone', 'Feather',
  'Wolf', 'Fox', 'Raven', 'Swallow', 'Tiger', 'Horse', 'Moth', 'Bloom', 'Tide', 'Storm', 'Star',
  'Moon', 'Sun', 'Sky', 'Cloud', 'Wave', 'Fever', 'Ribbon', 'Letter', 'Postcard', 'Radio',
  'Telephone', 'Cinema', 'Carousel', 'Parade', 'Kingdom', 'Empire', 'Machine', 'Circuit', 'Neon',
  'Static', 'Voltage', 'Orbit', 'Comet', 'Galaxy', 'Planet', 'Skyline', 'Avenue', 'Street',
  'Bridge', 'Tunnel', 'Station', 'Airport', 'Motel', 'Ballroom', 'Kitchen', 'Bedroom', 'Rooftop',
  'Balcony', 'Porch', 'Meadow', 'Orchard', 'Vineyard', 'Lighthouse', 'Cathedral', 'Chapel',
  'Candle', 'Ember', 'Ash', 'Smoke', 'Honey', 'Sugar', 'Salt', 'Wine', 'Whiskey', 'Coffee',
  'Cherry', 'Lemon', 'Peach', 'Diamond', 'Pearl', 'Crown', 'Arrow', 'Anchor', 'Sail', 'Wing',
  'Blossom', 'Petal', 'Thorn', 'Rose', 'Lily', 'Daisy', 'Ivy', 'Willow', 'Cedar', 'Pine',
  'Morning', 'Evening', 'Afternoon', 'Weekend', 'Holiday', 'Birthday', 'Memory', 'Promise',
  'Secret', 'Story', 'Song', 'Melody', 'Rhythm', 'Chorus', 'Silence', 'Whisper', 'Heartbeat',
  'Pulse', 'Spark', 'Flame', 'Halo', 'Angel', 'Devil', 'Saint', 'Sinner', 'Stranger', 'Lover',
  'Runaway', 'Dancer', 'Drifter', 'Dreamer', 'Wanderer', 'Traveller', 'Sailor', 'Soldier',
  'Daughter', 'Brother', 'Sister', 'Mother', 'Father', 'Neighbour', 'Friend', 'Mystery', 'Magic',
  'Gravity', 'Paradise', 'Heaven', 'Wilderness', 'Borderline', 'Frontier', 'Daylight', 'Midnight',
];

// prettier-ignore
const ADJECTIVES = [
  'Golden', 'Silver', 'Electric', 'Blue', 'Red', 'Black', 'White', 'Green', 'Violet', 'Crimson',
  'Hollow', 'Broken', 'Wild', 'Quiet', 'Loud', 'Sweet', 'Bitter', 'Slow', 'Fast', 'Lonely',
  'Lucky', 'Lost', 'Hidden', 'Secret', 'Endless', 'Restless', 'Fearless', 'Careless', 'Tender',
  'Gentle', 'Savage', 'Neon', 'Velvet', 'Paper', 'Glass', 'Crystal', 'Cosmic', 'Northern',
  'Southern', 'Western', 'Eastern', 'Midnight', 'Summer', 'Winter', 'Autumn', 'Spring', 'Early',
  'Late', 'Young', 'Old', 'New', 'Strange', 'Sacred', 'Holy', 'Faded', 'Bright', 'Dark', 'Heavy',
  'Light', 'Little', 'Big', 'Burning', 'Frozen', 'Falling', 'Rising', 'Running', 'Dancing',
  'Sleeping', 'Shining', 'Fading', 'Drifting', 'Floating', 'Shimmering', 'Hazy', 'Dusty', 'Rusty',
  'Salty', 'Sunny', 'Rainy', 'Stormy', 'Cloudy', 'Lazy', 'Crazy', 'Pretty', 'Honest', 'Modern',
  'Ancient', 'Analog', 'Digital', 'Magnetic', 'Radiant', 'Silent', 'Infinite', 'Perfect', 'Royal',
  'Second', 'Last', 'First', 'Only', 'Open', 'Distant',
];

// prettier-ignore
const VERBS = [
  'Run', 'Dance', 'Fall', 'Fly', 'Stay', 'Go', 'Wait', 'Hold', 'Breathe', 'Shine', 'Burn', 'Drive',
  'Ride', 'Swim', 'Sing', 'Call', 'Follow', 'Leave', 'Remember', 'Forget', 'Believe', 'Dream',
  'Wake', 'Sleep', 'Move', 'Turn', 'Break', 'Bend', 'Chase', 'Find', 'Keep', 'Lose', 'Love',
  'Miss', 'Need', 'Want', 'Touch', 'Feel', 'Talk', 'Listen', 'Look', 'Come', 'Rise', 'Light',
  'Carry', 'Catch', 'Kiss', 'Hide', 'Shake', 'Spin',
];

// prettier-ignore
const ENDINGS = [
  'Tonight', 'Again', 'Forever', 'Away', 'Home', 'Slowly', 'With Me', 'For You', 'On', 'Back',
  'Together', 'Alone', 'Anymore', 'All Night', 'Right Now', 'Like That', 'Till Morning',
  'in the Dark', 'in the Rain', 'Out Loud', 'Once More', 'Too Soon', 'to the Sea',
];

// prettier-ignore
const SPANISH_NOUNS = [
  'Corazón', 'Noche', 'Fuego', 'Luna', 'Sol', 'Mar', 'Cielo', 'Amor', 'Calle', 'Ciudad', 'Verano',
  'Lluvia', 'Estrella', 'Sueño', 'Camino', 'Playa', 'Fiesta', 'Ritmo', 'Alma', 'Vida', 'Flor',
  'Sombra', 'Viento', 'Río', 'Tiempo', 'Beso', 'Mirada', 'Canción', 'Madrugada', 'Tequila',
];

// prettier-ignore
const SPANISH_ADJECTIVES = [
  'Bonita', 'Loca', 'Dulce', 'Eterna', 'Perdida', 'Nueva', 'Salvaje', 'Brillante', 'Oscura',
  'Tranquila', 'Lejana', 'Dorada', 'Caliente', 'Azul', 'Roja',
];

// prettier-ignore
const SPANISH_PHRASES = [
  'Baila Conmigo', 'No Me Olvides', 'Dime Que Sí', 'Quédate', 'Otra Vez', 'Sin Ti', 'Te Extraño',
  'Hasta Mañana', 'Mi Gente', 'Vuelve', 'Solo Tú', 'Ay, Mamá', 'Toda la Noche', 'Ven a Mí',
  'Para Siempre', 'Me Enamoré', 'Mírame', 'Cuando Llueve', 'Bésame Otra Vez', 'Déjame Ir',
];

// prettier-ignore
const FORMS = [
  'Symphony', 'Piano Sonata', 'Violin Concerto', 'Piano Concerto', 'String Quartet', 'Cello Suite',
  'Nocturne', 'Étude', 'Prelude', 'Partita', 'Serenade', 'Sinfonietta', 'Fantasia', 'Rhapsody',
];

// prettier-ignore
const KEYS = [
  'C Major', 'C Minor', 'D Major', 'D Minor', 'E-Flat Major', 'E Minor', 'F Major', 'F Minor',
  'G Major', 'G Minor', 'A Major', 'A Minor', 'B-Flat Major', 'B Minor',
];

// prettier-ignore
const MOVEMENTS = [
  'Allegro', 'Allegro con brio', 'Adagio', 'Andante', 'Andante cantabile', 'Largo', 'Presto',
  'Scherzo. Allegro vivace', 'Menuetto', 'Rondo. Allegro', 'Lento', 'Moderato', 'Vivace',
  'Adagio ma non troppo', 'Finale. Presto',
];

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI'];

// prettier-ignore
const VENUES = [
  'Hall', 'Theatre', 'Ballroom', 'Club', 'Arena', 'Opera House', 'Pavilion', 'Palace',
];

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function plural(noun: string): string {
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (noun.endsWith('f')) return `${noun.slice(0, -1)}ves`;
  return `${noun}s`;
}

/** A made-up word of 2–3 syllables in a flavour, capitalised: a stage name or a place. */
export function syllableWord(random: Random, flavour: NameFlavour, syllables?: number): string {
  const { syllables: parts } = PHONOLOGY[flavour];
  const count = syllables ?? random.int(2, 3);
  let word = '';
  for (let index = 0; index < count; index++) word += random.pick(parts);
  return capitalize(word);
}

export function personName(random: Random, flavour: NameFlavour): string {
  const phonology = PHONOLOGY[flavour];
  const first = random.pick(phonology.firstNames);
  const last = random.pick(phonology.surnameStarts) + random.pick(phonology.surnameEnds);
  return `${first} ${capitalize(last)}`;
}

export function placeName(random: Random, flavour: NameFlavour): string {
  return syllableWord(random, flavour, 2) + random.pick(['', '', 'a', 'ia', 'on', 'ville', 'port']);
}

/** A name for an artist, in the style of its family's acts. */
export function artistName(random: Random, flavour: NameFlavour, act: ActStyle): string {
  switch (act) {
    case 'solo':
      return random.chance(0.7)
        ? personName(random, flavour)
        : random.chance(0.6)
          ? syllableWord(random, flavour)
          : `${random.pick(PHONOLOGY[flavour].firstNames)} ${random.pick(NOUNS)}`;
    case 'band':
      return bandName(random, flavour);
    case 'producer':
      return random.weighted(
        [
          () => syllableWord(random, flavour),
          () => `${random.pick(ADJECTIVES)}${random.pick(NOUNS).toLowerCase()}`,
          () => `DJ ${syllableWord(random, flavour, 2)}`,
          () =>
            `${syllableWord(random, flavour, 2)} ${random.pick(['Club', 'Sound', 'System', 'Unit'])}`,
          () => personName(random, flavour),
        ],
        [3, 2, 1, 1, 2],
      )();
    case 'rapper':
      return random.weighted(
        [
          () =>
            `${random.pick(['Lil', 'Young', 'Big', 'MC', 'Kid'])} ${syllableWord(random, flavour, 2)}`,
          () => syllableWord(random, flavour),
          () => `${random.pick(ADJECTIVES)} ${syllableWord(random, flavour, 2)}`,
          () => `${syllableWord(random, flavour, 2)} ${random.pick(NOUNS)}`,
          () => personName(random, flavour),
        ],
        [2, 3, 1, 1, 1],
      )();
    case 'classical':
      return random.chance(0.6)
        ? personName(random, flavour)
        : `${placeName(random, flavour)} ${random.pick([
            'Philharmonic Orchestra',
            'String Quartet',
            'Chamber Orchestra',
            'Piano Trio',
            'Baroque Ensemble',
            'Symphony Orchestra',
          ])}`;
    case 'jazz':
      return random.chance(0.55)
        ? personName(random, flavour)
        : `${personName(random, flavour)} ${random.pick(['Trio', 'Quartet', 'Quintet', 'Sextet', 'Big Band'])}`;
  }
}

function bandName(random: Random, flavour: NameFlavour): string {
  return random.weighted(
    [
      () => `The ${plural(random.pick(NOUNS))}`,
      () => `The ${random.pick(ADJECTIVES)} ${plural(random.pick(NOUNS))}`,
      () => `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`,
      () => `${random.pick(NOUNS)} ${random.pick(NOUNS)}`,
      () => `${personName(random, flavour).split(' ')[0]} & the ${plural(random.pick(NOUNS))}`,
      () => syllableWord(random, flavour),
      () => `${random.pick(NOUNS)}${random.pick(['', 's'])} of ${random.pick(NOUNS)}`,
    ],
    [3, 3, 3, 2, 1, 2, 1],
  )();
}

/** A song title. */
export function songTitle(random: Random, style: 'english' | 'spanish'): string {
  if (style === 'spanish' && random.chance(0.75)) {
    return random.weighted(
      [
        () => random.pick(SPANISH_NOUNS),
        () => `${random.pick(SPANISH_NOUNS)} ${random.pick(SPANISH_ADJECTIVES)}`,
        () => random.pick(SPANISH_PHRASES),
        () => `${random.pick(SPANISH_NOUNS)} de ${random.pick(SPANISH_NOUNS)}`,
      ],
      [3, 3, 3, 1],
    )();
  }
  return random.weighted(
    [
      () => random.pick(NOUNS),
      () => `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`,
      () => `${random.pick(VERBS)} ${random.pick(ENDINGS)}`,
      () => `Don't ${random.pick(VERBS)}`,
      () => `The ${random.pick(NOUNS)}`,
      () => `${random.pick(NOUNS)} of ${random.pick(NOUNS)}`,
      () => `${plural(random.pick(NOUNS))}`,
      () => `${random.pick(VERBS)} Me ${random.pick(['Home', 'Back', 'Closer', 'Now', 'Down'])}`,
      () => `${random.pick(ADJECTIVES)}`,
      () => `${random.pick(NOUNS)} ${random.pick(['Song', 'Blues', 'Waltz', 'Lullaby', 'Anthem'])}`,
      () => `All the ${random.pick(ADJECTIVES)} ${plural(random.pick(NOUNS))}`,
      () => `${random.pick(NOUNS)} in the ${random.pick(NOUNS)}`,
      () =>
        `I ${random.pick(VERBS)} ${random.pick(['You', 'It', 'Nothing', 'Everything', 'Her', 'Him'])}`,
    ],
    [4, 5, 3, 1, 2, 2, 2, 1, 1, 1, 1, 2, 1],
  )();
}

/** An album title (not self-titled or live: the catalogue decides those). */
export function albumTitle(random: Random, style: 'english' | 'spanish'): string {
  if (style === 'spanish' && random.chance(0.7)) {
    return random.chance(0.5)
      ? `${random.pick(SPANISH_NOUNS)} ${random.pick(SPANISH_ADJECTIVES)}`
      : random.pick(SPANISH_NOUNS);
  }
  return random.weighted(
    [
      () => `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`,
      () => random.pick(NOUNS),
      () => `${plural(random.pick(NOUNS))} & ${plural(random.pick(NOUNS))}`,
      () => `The ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`,
      () =>
        `${random.pick(NOUNS)} ${random.pick(['Sessions', 'Tapes', 'Stories', 'Songs', 'Diaries'])}`,
      () => `${random.pick(VERBS)} ${random.pick(ENDINGS)}`,
      () =>
        `${plural(random.pick(NOUNS))} of ${random.pick(ADJECTIVES)} ${plural(random.pick(NOUNS))}`,
    ],
    [5, 3, 1, 2, 1, 1, 1],
  )();
}

export function liveAlbumTitle(random: Random, flavour: NameFlavour): string {
  return `Live at the ${placeName(random, flavour)} ${random.pick(VENUES)}`;
}

export function compilationTitle(random: Random, artist: string, fromYear: number, toYear: number) {
  return random.pick([
    'Greatest Hits',
    `The Best of ${artist}`,
    `The Essential ${artist}`,
    `Anthology ${fromYear}–${toYear}`,
    'Collected',
    'Singles',
    `${artist}: The Collection`,
  ]);
}

export interface ClassicalPiece {
  /** "Symphony No. 5 in C Minor, Op. 67" */
  title: string;
  /** Movement names in order: "I. Allegro con brio". */
  movements: string[];
}

export function classicalPiece(random: Random): ClassicalPiece {
  const form = random.pick(FORMS);
  const number = random.int(1, 12);
  const opus = random.int(2, 140);
  const title = `${form} No. ${number} in ${random.pick(KEYS)}, Op. ${opus}`;
  const single = ['Nocturne', 'Étude', 'Prelude', 'Rhapsody', 'Fantasia'].includes(form);
  const count = single ? 1 : random.int(3, 4);
  const movements = random
    .sample(MOVEMENTS, count)
    .map((movement, index) => `${ROMAN[index] ?? index + 1}. ${movement}`);
  return { title, movements: single ? [] : movements };
}

export function classicalAlbumTitle(random: Random, composer: string): string {
  return random.pick([
    `${composer}: ${plural(random.pick(FORMS))}`,
    `${plural(random.pick(FORMS))} and ${plural(random.pick(FORMS))}`,
    `${composer}: Complete ${plural(random.pick(FORMS))}, Vol. ${random.int(1, 4)}`,
    `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}: Works for ${random.pick(['Piano', 'Strings', 'Orchestra', 'Cello and Piano'])}`,
  ]);
}

/** A record label name. */
export function labelName(random: Random): string {
  return random.weighted(
    [
      () => `${random.pick(NOUNS)} Records`,
      () => `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} Recordings`,
      () => `${syllableWord(random, 'english', 2)} Music`,
      () => `${random.pick(NOUNS)}house`,
      () => `${placeName(random, 'english')} Sound`,
      () => `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`,
    ],
    [3, 2, 2, 1, 1, 1],
  )();
}

/** A playlist name a person might give their own playlist. */
export function playlistName(random: Random, genre: string, year: number): string {
  return random.pick([
    `${genre} favourites`,
    `${random.pick(['sunday', 'monday', 'friday', 'late night', 'early morning'])} ${random.pick(['mood', 'feels', 'songs', 'mix'])}`,
    `roadtrip ${year}`,
    `summer ${year}`,
    'gym',
    'focus',
    'dinner party',
    'cooking',
    'rainy days',
    'for the train',
    `${random.pick(ADJECTIVES).toLowerCase()} ${plural(random.pick(NOUNS)).toLowerCase()}`,
    `${genre} deep cuts`,
    'songs to sing in the car',
    'slow dance',
    'on repeat',
    `best of ${year}`,
    'wind down',
    `${random.pick(NOUNS).toLowerCase()} ✨`,
  ]);
}

export function playlistDescription(random: Random, genre: string): string {
  return random.pick([
    '',
    '',
    '',
    `a bit of ${genre}, a bit of everything else`,
    'no skips',
    'updated whenever I feel like it',
    'for headphones only',
    `the ${genre} I keep coming back to`,
    'put this on and relax',
  ]);
}
