import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalizeUri } from '../core/uri.js';
import { catalogResources, confusableResources } from './shape.js';
import { spellingOf, spellingVariants } from '../sim/actors/spelling.js';

const uris = [...catalogResources, ...confusableResources].map((resource) => resource.uri);

describe('spellingOf: equivalent spellings made by construction', () => {
  it('every variant of every plan URI is a different text that the reference canonicaliser maps back to the URI', () => {
    fc.assert(
      fc.property(fc.constantFrom(...uris), fc.nat(spellingVariants - 1), (uri, variant) => {
        const spelled = spellingOf(uri, variant);
        expect(spelled).not.toBe(uri);
        expect(canonicalizeUri(spelled)).toEqual({ ok: true, uri });
      }),
    );
  });

  it('covers every RFC 3986 §6.2.2 equivalence and the default port on URIs where they apply', () => {
    expect(spellingOf('demo://resource/docs/a%2Fb', 0)).toBe('DEMO://resource/docs/a%2Fb');
    expect(spellingOf('test://static/resource/1', 1)).toBe('test://STATIC/resource/1');
    expect(spellingOf('test://static/resource/1', 2)).toBe('test://static/resource/%31');
    expect(spellingOf('demo://resource/docs/~notes', 3)).toBe('demo://resource/docs/%7enotes');
    expect(spellingOf('demo://resource/docs/a%2Fb', 4)).toBe('demo://resource/docs/a%2fb');
    expect(spellingOf('file:///project/src/index.ts', 5)).toBe('file:///./project/src/index.ts');
    expect(spellingOf('demo://resource/docs/a/b', 6)).toBe('demo://resource/zz/../docs/a/b');
    expect(spellingOf('https://example.com/docs/x', 7)).toBe('https://example.com:443/docs/x');
  });

  it('near-misses stay distinct: no spelling of a%2Fb is a/b, and the confusable resources are distinct canonical URIs', () => {
    for (let variant = 0; variant < spellingVariants; variant++) {
      expect(canonicalizeUri(spellingOf('demo://resource/docs/a%2Fb', variant))).not.toEqual({ ok: true, uri: 'demo://resource/docs/a/b' });
    }
    const canonical = confusableResources.map((resource) => canonicalizeUri(resource.uri));
    expect(new Set(canonical.map((result) => (result.ok ? result.uri : ''))).size).toBe(confusableResources.length);
  });
});
