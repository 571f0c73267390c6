/**
 * A copy of a JSON-RPC message equal to `JSON.parse(JSON.stringify(message))`, built without the text: the
 * virtual link's fast path for the simulator's own server end (no object is shared between the two ends,
 * and the receiver sees exactly what a parsed wire line would give it). Plain data (objects with the plain
 * prototype, arrays, strings, finite numbers (-0 becomes 0), booleans, null; `undefined` object members are left out, as
 * JSON.stringify does) is copied directly; anything else (a `toJSON`, a Date, a non-finite number, a hole or
 * `undefined` in an array, a `__proto__` key) makes the whole message take the JSON round trip.
 */
const plainPrototype = Object.prototype;

class NotPlain extends Error {}
const notPlain = new NotPlain('not plain JSON data');

export function cloneJson<T>(value: T): T {
  try {
    return copy(value) as T;
  } catch (error) {
    if (error !== notPlain) throw error;
    return JSON.parse(JSON.stringify(value)) as T;
  }
}

function copy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw notPlain;
      return value === 0 ? 0 : value; // -0 is written "0"
    case 'object':
      if (value === null) return null;
      return Array.isArray(value) ? copyArray(value) : copyObject(value as Record<string, unknown>);
    default:
      throw notPlain;
  }
}

function copyArray(array: readonly unknown[]): unknown[] {
  if (Object.getPrototypeOf(array) !== Array.prototype) throw notPlain;
  const length = array.length;
  const result = new Array<unknown>(length);
  for (let index = 0; index < length; index++) {
    if (!(index in array) || array[index] === undefined) throw notPlain;
    result[index] = copy(array[index]);
  }
  return result;
}

function copyObject(object: Record<string, unknown>): Record<string, unknown> {
  const prototype = Object.getPrototypeOf(object);
  if ((prototype !== plainPrototype && prototype !== null) || typeof object.toJSON === 'function') throw notPlain;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const member = object[key];
    if (member === undefined) continue;
    if (key === '__proto__') throw notPlain;
    result[key] = copy(member);
  }
  return result;
}
