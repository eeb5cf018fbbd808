import { describe, expect, it } from 'vitest';
import { songTitle, titleKey } from '../src/services/song-identity';

describe('song identity', () => {
  it.each([
    ['Hey Jude - Remastered 2015', 'hey jude'],
    ['Hey Jude (Remastered)', 'hey jude'],
    ['Blinding Lights (Radio Edit)', 'blinding lights'],
    ['Dreams - 2004 Remaster', 'dreams'],
    ['Song 2 [Live at Wembley]', 'song 2'],
    ['Señorita (feat. Someone)', 'senorita'],
    ['Rock & Roll', 'rock and roll'],
  ])('treats %s as the song %s', (title, song) => {
    expect(songTitle(title)).toBe(song);
  });

  it('keeps titles that only look like version notes', () => {
    expect(songTitle('Live and Let Die')).toBe('live and let die');
    expect(songTitle('(I Can’t Get No) Satisfaction')).toBe('i can t get no satisfaction');
    expect(songTitle('Remaster')).toBe('remaster');
  });

  it('keys a song by title and primary artist', () => {
    expect(titleKey('Hey Jude - Remastered', 'The Beatles')).toBe(
      titleKey('HEY JUDE', 'the beatles'),
    );
    expect(titleKey('Hey Jude', 'The Beatles')).not.toBe(titleKey('Hey Jude', 'Wilson Pickett'));
  });
});
