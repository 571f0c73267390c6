/**
 * Series of the counters: one per instrument and combination of attribute values from the catalogue's closed
 * sets (an attribute may also be absent). The fold keeps counter totals in an array indexed by series, so a
 * step copies one small array instead of a record of every series.
 */
import { instrumentIds, instruments, type InstrumentId } from './instruments.js';

/** Instrument id, then `|attribute=value` in attribute-name order: `reads|fencesim.read.reason=poll`. */
export function seriesKey(instrument: InstrumentId, attributes: Record<string, string>): string {
  let key: string = instrument;
  const names = Object.keys(attributes);
  if (names.length === 0) return key;
  if (names.length > 1) names.sort();
  for (const name of names) key += '|' + name + '=' + attributes[name];
  return key;
}

const keys: string[] = [];
const indexByKey = new Map<string, number>();

for (const id of instrumentIds) {
  const spec = instruments[id];
  if (spec.kind !== 'counter') continue;
  let combinations: Array<Record<string, string>> = [{}];
  for (const [name, values] of Object.entries(spec.attributes)) {
    combinations = combinations.flatMap((combination) => [combination, ...values.map((value) => ({ ...combination, [name]: value }))]);
  }
  for (const combination of combinations) {
    const key = seriesKey(id, combination);
    indexByKey.set(key, keys.length);
    keys.push(key);
  }
}

export const seriesCount = keys.length;

export function seriesIndexOf(key: string): number | undefined {
  return indexByKey.get(key);
}

export function seriesKeyAt(index: number): string {
  return keys[index]!;
}
