/**
 * How the catalogue's identifiers are made: Spotify ids that never repeat, ISRC registrant codes,
 * UPC check digits. Apart from the builder because artists get their ids before any album is built.
 */
import { hashString, type Random } from '../random';

/** Ids that never repeat within a world. */
export class IdMaker {
  private readonly used = new Set<string>();
  constructor(private readonly random: Random) {}
  next(): string {
    for (;;) {
      const id = this.random.base62Id();
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

const REGISTRANT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function registrantCode(label: string): string {
  let hash = hashString(label);
  let code = '';
  for (let index = 0; index < 3; index++) {
    code += REGISTRANT_ALPHABET[hash % (index === 0 ? 26 : 36)];
    hash = Math.floor(hash / 36);
  }
  return code;
}

/** UPC-A check digit of 11 digits. */
export function upcCheckDigit(body: string): string {
  let sum = 0;
  for (let index = 0; index < body.length; index++) {
    sum += Number(body[index]) * (index % 2 === 0 ? 3 : 1);
  }
  return String((10 - (sum % 10)) % 10);
}
