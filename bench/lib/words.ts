/**
 * Vocabulary for generated catalogues and users. Title words are listed roughly from the most to
 * the least common in song titles, so skewed picks make "love" common and "lighthouse" rare, as in
 * a real catalogue. A few names carry accents, which search must fold.
 */
const words = (text: string) => text.trim().split(/\s+/);
const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export const TITLE_WORDS = words(`
  love night heart baby time girl life home dream world light fire rain summer blue gold sun
  moon river road city star wild young forever tonight dance money crazy broken sweet lonely
  happy fade run stay free ghost angel devil paradise midnight morning ocean electric golden
  silver shadow storm thunder wind winter autumn spring fever sugar honey diamond highway
  heaven hell kiss tears smile eyes hands memories stranger lover friend enemy queen king
  rebel hero lost found alive falling rising burning waiting dancing running dreaming shine
  glow echo silence noise radio neon velvet cherry roses garden desert island mountain valley
  bridge window mirror picture letter story song melody rhythm blues soul funk disco boogie
  party weekend sunday monday friday yesterday tomorrow always never maybe together alone
  apart closer higher deeper faster slow easy hard cold warm hot cool dark bright red black
  white green purple pink violet crystal paper stone glass steel wire machine robot future
  past memory moment minute hour season years days nights lights stars waves tides clouds
  skies horizon sunset sunrise dawn dusk twilight satellite rocket planet galaxy cosmic
  gravity magnet chemical animal tiger wolf lion bird butterfly dragon phoenix horses coyote
  raven dove swan café señorita corazón amour cœur fiesta noche vida mañana déjà lighthouse
  harbour carousel lullaby serenade symphony overture requiem ballad anthem hymn prayer
  miracle wonder magic mystery secret promise liar truth justice freedom revolution empire
  kingdom castle tower station airport motel hotel avenue boulevard alley subway
`);

export const FIRST_NAMES = words(`
  Ana Ben Chloé David Elena Felix Greta Hugo Ines Jonas Kira Liam Maya Noah Olivia Pablo Quinn
  Rosa Sami Tara Umar Vera Will Xenia Yusuf Zoë Björn Léa José Ólafur Renée Søren Amélie Mateo
  Sofia Lucas Emma Leon Mia Arjun Priya Kenji Yuki Omar Fatima Ivan Nadia Paulo Lucía Tomás
  Marta Nils Freya Oscar Ruth
`);

export const LAST_NAMES = list(`
  Silva, Smith, Müller, García, Rossi, Dubois, Novak, Kowalski, Jensen, Andersen, Lindqvist,
  Okafor, Mensah, Tanaka, Sato, Kim, Park, Nguyen, Chen, Wang, Patel, Singh, Haddad, Cohen,
  Levi, Ivanova, Petrov, Horvat, Costa, Pereira, Fernández, López, Martín, Bernard, Moreau,
  Fischer, Weber, Brown, Wilson, Taylor, Walker, Young, King, Wright, Hughes, Evans, Murphy,
  Kelly, Ó Briain, Þórsson, Åberg, Çelik, Yılmaz, Nowak, Dvořák, Szabó, Nagy,
`);

export const GENRES = list(`
  pop, dance pop, indie pop, synthpop, electropop, k-pop, j-pop, rock, indie rock,
  alternative rock, classic rock, hard rock, punk, post-punk, garage rock, metal, heavy metal,
  metalcore, hip hop, rap, trap, drill, r&b, neo soul, soul, funk, disco, house, deep house,
  techno, trance, drum and bass, dubstep, ambient, downtempo, trip hop, lo-fi, jazz,
  smooth jazz, bebop, blues, country, americana, folk, indie folk, singer-songwriter, reggae,
  dancehall, reggaeton, latin pop, salsa, bossa nova, mpb, afrobeats, amapiano, classical,
  contemporary classical, soundtrack, chanson, schlager, city pop, shoegaze,
`);

/** Version notes: versions of one song share its uid. */
export const VERSION_NOTES = [
  ' - Remastered 2011',
  ' (Live)',
  ' - Radio Edit',
  ' (Acoustic)',
  ' - 2015 Remaster',
  ' (Deluxe Edition)',
];
