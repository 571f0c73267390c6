/**
 * The uri-shapes scenario: its table (checked once against the reference canonicaliser, which the run never asks),
 * what its listing really served, and that it catches a client whose canonicaliser is wrong in one rule (the
 * reference behind a wrapper that rewrites the URIs of list pages before they reach it, as such a canonicaliser would).
 */
import { describe, expect, it } from 'vitest';

import { referenceClient } from '../core/reducer.js';
import type { ClientInput, ClientUnderTest } from '../core/types.js';
import { canonicalizeUri, canonicalizeUriWithoutFastPath } from '../core/uri.js';
import { faultIndex } from '../sim/faults.js';
import { invariantIndex } from '../sim/oracle.js';
import { deriveSeed } from '../sim/prng.js';
import { runInterleaving } from '../sim/world.js';
import { sameResourceFailure } from '../scripts/mutation-gate.js';
import { findScenario } from './catalog.js';
import { nonUris, uriShapeResources, uriShapes } from './uri-shapes.js';

const spellingCount = uriShapeResources.reduce((sum, resource) => sum + (resource.spellings?.length ?? 0), 0);

function run(client: ClientUnderTest<any>, index = 0) {
  return runInterleaving(deriveSeed(1, index), uriShapes, client, { trace: false, record: false });
}

/** The reference, but every `resources[].uri` of a list result is rewritten first (a canonicaliser wrong in one rule). */
function rewritingListedUris(rewrite: (uri: string) => string): ClientUnderTest<any> {
  return {
    ...referenceClient,
    name: 'reference-rewriting-listed-uris',
    step(state, input: ClientInput) {
      if (input.type !== 'ResponseArrived' || input.outcome.type !== 'result') return referenceClient.step(state, input);
      const result = input.outcome.result as { resources?: unknown };
      if (!Array.isArray(result?.resources)) return referenceClient.step(state, input);
      const resources = result.resources.map((entry: { uri?: unknown }) => (typeof entry?.uri === 'string' ? { ...entry, uri: rewrite(entry.uri) } : entry));
      return referenceClient.step(state, { ...input, outcome: { ...input.outcome, result: { ...result, resources } } });
    },
  };
}

describe('uri-shapes: the table', () => {
  it('is registered in the catalog', () => {
    expect(findScenario('uri-shapes')).toBe(uriShapes);
  });

  it('every resource is canonical, every spelling normalises to it (full parser), every name is one resource only', () => {
    const owner = new Map<string, string>();
    for (const resource of uriShapeResources) {
      expect(canonicalizeUri(resource.uri)).toEqual({ ok: true, uri: resource.uri });
      for (const name of [resource.uri, ...(resource.spellings ?? [])]) {
        expect(owner.has(name), name).toBe(false);
        owner.set(name, resource.uri);
        expect(canonicalizeUriWithoutFastPath(name), name).toEqual({ ok: true, uri: resource.uri });
      }
    }
    expect(uriShapeResources.length).toBeGreaterThanOrEqual(60);
    expect(spellingCount).toBeGreaterThanOrEqual(100);
  });

  it('every non-URI is rejected with a typed error', () => {
    for (const text of nonUris) {
      const result = canonicalizeUri(text);
      expect(result.ok, JSON.stringify(text)).toBe(false);
      if (!result.ok) expect(result.error.type).toBe('InvalidUri');
    }
  });

  it('judges the library export sameResource (the mutation gate part): core/uri.ts passes, a wrong one is named', () => {
    expect(sameResourceFailure()).toBeNull();
    expect(sameResourceFailure((a, b) => a === b)).toBe('sameResource("HTTP://EXAMPLE.COM", "http://example.com/") is not true');
    // Canonical forms compared, but a string taken as the same resource as itself before it is checked to be a URI;
    // then any two URIs taken as one resource.
    const canonical = (text: string): string | null => {
      const result = canonicalizeUri(text);
      return result.ok ? result.uri : null;
    };
    expect(sameResourceFailure((a, b) => a === b || (canonical(a) !== null && canonical(a) === canonical(b)))).toBe('sameResource("", "") is not false: "" is not a URI');
    expect(sameResourceFailure((a, b) => canonical(a) !== null && canonical(b) !== null)).toBe('sameResource("http://example.com/", "http://example.com:8080/") is not false');
  });
});

describe('uri-shapes: the run', () => {
  it('interleaving 0 (the mutation gate part) lists every spelling twice-over and every non-URI, spells notifications; the reference passes', () => {
    const result = run(referenceClient);
    expect(result.outcome).toBe('passed');
    const oracle = result.oracle as unknown as { rejections: number; catalog: { passesCompleted: number; catalogsProven: number } };
    // Passes in turn: honest, duplicate, non-URI, duplicate, non-URI. Each malformed one is rejected once.
    const malformedPasses = spellingCount + nonUris.length;
    expect(oracle.catalog.passesCompleted).toBeGreaterThan(Math.ceil((malformedPasses * 5) / 4));
    expect(oracle.rejections).toBeGreaterThan(malformedPasses);
    expect(oracle.catalog.catalogsProven).toBeGreaterThan(Math.ceil(spellingCount / 2));
    expect(result.faultCounts[faultIndex['uri-spelling']]).toBeGreaterThan(0);
  });

  it('a canonicaliser that decodes %2F conflates a%2Fb with a/b: an honest snapshot is abandoned (proven_withheld)', () => {
    const result = run(rewritingListedUris((uri) => uri.replace(/%2F/gi, '/')));
    expect(result.oracle.counts[invariantIndex.proven_withheld]).toBeGreaterThan(0);
  });

  it('a canonicaliser that drops spaces accepts a non-URI: a malformed pass is published (unreconciled_catalog)', () => {
    const result = run(rewritingListedUris((uri) => uri.replace(/ /g, '')));
    expect(result.oracle.counts[invariantIndex.unreconciled_catalog]).toBeGreaterThan(0);
  });

  it('a canonicaliser that keeps an explicit default port misses a duplicate and renames a resource (unreconciled_catalog, catalog_untrue)', () => {
    const result = run(rewritingListedUris((uri) => uri.replace(/^http:\/\/example\.com:80\//, 'http://example.com:81/')));
    expect(result.oracle.counts[invariantIndex.unreconciled_catalog]).toBeGreaterThan(0);
    expect(result.oracle.counts[invariantIndex.catalog_untrue]).toBeGreaterThan(0);
  });
});
