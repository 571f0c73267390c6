/**
 * JSON text of copy-on-write data written again and again (the reference core's ledger after every step): a
 * member that is the very object it was at the same place last time reuses that text, so only what a step
 * changed is written anew (a step copies what it changes; every unchanged record is shared with the last
 * ledger). The text is exactly `JSON.stringify(value)` (same members, order and escapes) as long as no
 * object is changed in place once written.
 *
 * cacheModule writes the reference core's ledger with it after every step for a store of its own (the
 * harness's store writes the text only when a crash loads it: module-store.ts): a plain JSON.stringify of a
 * 4-8 KB ledger, 180-370 times per interleaving, was 7-11 % of a fenced-cache module run. Only the last
 * value at each place is remembered (no WeakMap: thousands of ephemerons made the collector slower than
 * the writing it saved).
 *
 * Not for data changed in place: the text of a changed object would be the old one. Objects with at most
 * one object member (the ledger's records), arrays of at most one element and anything that is not plain
 * data (a `toJSON`, a class instance) are written by JSON.stringify itself.
 */
const plainPrototype = Object.prototype;

interface Place {
  value: unknown;
  text: string | undefined;
  /** Per member key (composite objects only): the place of that member. */
  members: Map<string, Place> | null;
}

export class SharedJson {
  private readonly root: Place = { value: undefined, text: undefined, members: null };

  /** `JSON.stringify(value)` (a string for any JSON value), reusing the texts of members unchanged since the last write. */
  write(value: unknown): string {
    return textAt(this.root, value) ?? 'null';
  }
}

/** The text of `value` at `place` (undefined where JSON.stringify leaves a member out), remembered there. */
function textAt(place: Place, value: unknown): string | undefined {
  if (place.value === value && place.text !== undefined) return place.text;
  let text: string | undefined;
  if (typeof value === 'object' && value !== null && composite(value)) {
    const before = place.members;
    const members = new Map<string, Place>();
    text = '{';
    for (const key of Object.keys(value)) {
      const memberPlace = before?.get(key) ?? { value: undefined, text: undefined, members: null };
      members.set(key, memberPlace);
      const member = textAt(memberPlace, (value as Record<string, unknown>)[key]);
      if (member === undefined) continue;
      text += (text.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + member;
    }
    text += '}';
    place.members = members;
  } else {
    text = JSON.stringify(value);
    place.members = null;
  }
  place.value = value;
  place.text = text;
  return text;
}

/** A plain object with two or more object members: written member by member. */
function composite(value: object): boolean {
  if (Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if ((prototype !== plainPrototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  let objects = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null && ++objects > 1) return true;
  }
  return false;
}
