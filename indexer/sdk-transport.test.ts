/**
 * The indexer share on `--transport sdk` (issue 13 item 3): the SDK gate runs the same indexer interleavings
 * as the pure gate (one every 100 indexes by default, every index with `--indexer NAME`), so its indexer
 * figures equal the pure gate's for the same spec, exactly, and the indexer's reasons reach the verdict.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../core/reducer.js';
import { findScenario } from '../scenarios/catalog.js';
import { runSdkRange } from '../adapters/mcp-sdk/sim/sdk-gate.js';
import { runRange, verdictOf, type RunSpec } from '../sim/gate.js';
import { indexerTotalsOf } from './gate-figures.js';

describe('the indexer on the SDK transport', () => {
  it('runs the indexer share with the same figures as the pure gate', async () => {
    const scenario = findScenario('reconnect')!;
    const base: RunSpec = { seed: 5, interleavings: 3, scenario: scenario.name, client: referenceClient.name, maxFailures: 5 };
    const pure = runRange({ ...base, indexer: 'reference' }, scenario, referenceClient, 0, 3);
    const sdk = await runSdkRange({ ...base, transport: 'sdk', indexer: 'reference' }, scenario, referenceClient, 0, 3);
    expect(indexerTotalsOf(sdk.indexerFigures).interleavings).toBe(3);
    expect(Array.from(sdk.indexerFigures)).toEqual(Array.from(pure.indexerFigures));
  }, 120_000);

  it('an indexer under test fails the SDK gate where it fails the pure one, with the same reasons', async () => {
    const scenario = findScenario('reconnect')!;
    const spec: RunSpec = { seed: 5, interleavings: 400, scenario: scenario.name, client: referenceClient.name, maxFailures: 5, indexer: 'naive-no-tombstone' };
    // Find, on the fast pure path, an index whose indexer interleaving catches the naive indexer.
    const indexerReasons = (reasons: readonly string[]): string[] => reasons.filter((reason) => reason.startsWith('indexer '));
    let index = 0;
    while (index < 400 && indexerReasons(verdictOf(runRange(spec, scenario, referenceClient, index, index + 1), scenario).reasons).length === 0) index++;
    expect(index).toBeLessThan(400);
    const pure = verdictOf(runRange(spec, scenario, referenceClient, index, index + 1), scenario);
    const sdk = verdictOf(await runSdkRange({ ...spec, transport: 'sdk' }, scenario, referenceClient, index, index + 1), scenario);
    expect(indexerReasons(sdk.reasons)).toEqual(indexerReasons(pure.reasons));
  }, 300_000);
});
