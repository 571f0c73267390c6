import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneJson } from './json-clone.js';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Values JSON.stringify accepts, including the members it rewrites or leaves out. */
const awkward = fc.oneof(
  fc.constant(undefined),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(-0),
  fc.constant(new Date(0)),
  fc.constant({ toJSON: () => 'custom' }),
  fc.constant(() => 1),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), awkward, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), tie('node'), { maxKeys: 4 })),
})).node;

describe('cloneJson', () => {
  it('gives exactly what JSON.parse(JSON.stringify(x)) gives, member order included', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { maxKeys: 5 }), (message) => {
        const copy = cloneJson(message);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(roundTrip(message)));
        expect(copy).toStrictEqual(roundTrip(message));
      }),
      { numRuns: 500 },
    );
  });

  it('shares no object with the original', () => {
    const message = { jsonrpc: '2.0', id: 3, result: { contents: [{ uri: 'kb://a', text: 'v1' }], _meta: { tags: ['x'] } } };
    const copy = cloneJson(message);
    message.result.contents[0]!.text = 'changed';
    message.result._meta.tags.push('y');
    expect(copy).toEqual({ jsonrpc: '2.0', id: 3, result: { contents: [{ uri: 'kb://a', text: 'v1' }], _meta: { tags: ['x'] } } });
  });

  it('keeps a __proto__ member as data, as JSON.parse does', () => {
    const message = JSON.parse('{"a":{"__proto__":{"polluted":true}}}') as Record<string, unknown>;
    const copy = cloneJson(message) as { a: Record<string, unknown> };
    expect(Object.keys(copy.a)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws what JSON.stringify throws', () => {
    expect(() => cloneJson({ id: 1n })).toThrow(TypeError);
  });
});
