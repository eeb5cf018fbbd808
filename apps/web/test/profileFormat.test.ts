import { describe, expect, it } from 'vitest';
import {
  formatListeningTime,
  listeningTimeDuration,
  rankMedal,
} from '../src/features/profile/profileFormat';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('listening time in days, hours and minutes', () => {
  it.each([
    [0, '0m'],
    [59, '0m'],
    [12 * MINUTE, '12m'],
    [4 * HOUR, '4h 0m'],
    [4 * HOUR + 12 * MINUTE + 59, '4h 12m'],
    [DAY, '1d 0h 0m'],
    [3 * DAY + 4 * HOUR + 12 * MINUTE, '3d 4h 12m'],
    [400 * DAY + 5 * MINUTE, '400d 0h 5m'],
  ])('%i s reads "%s"', (seconds, text) => {
    expect(formatListeningTime(seconds)).toBe(text);
  });

  it('gives the machine-readable duration too', () => {
    expect(listeningTimeDuration(3 * DAY + 4 * HOUR + 12 * MINUTE)).toBe('P3DT4H12M');
  });
});

describe('ranks', () => {
  it('gives medals to ranks 1 to 3, then none ("#n")', () => {
    expect([1, 2, 3, 4, 10].map(rankMedal)).toEqual(['gold', 'silver', 'bronze', null, null]);
  });
});
