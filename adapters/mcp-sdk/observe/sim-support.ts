/**
 * The simulator pieces the observation tests and the benchmark use, imported in this one file only (the
 * simulation kernel is being rewritten and moved: fix the paths here). Read-only use: nothing here changes
 * the simulator.
 */
import type { Ledger } from '../../../core/state.js';
import type { ClientUnderTest } from '../../../core/types.js';
import { createPrng, deriveSeed } from '../../../sim/prng.js';
import type { ContentStore } from '../cache/cache-types.js';
import { FencedResourceCache, type CacheObserveOptions } from '../cache/fenced-cache.js';
import { createSdkWorld, simulatedRequestTimeoutMs, type SdkWorld } from '../sim/sdk-world.js';
import { createVirtualLink } from '../transport/virtual-transport.js';

export { createSdkWorld, type SdkWorld } from '../sim/sdk-world.js';
export { naiveCacheAfterRevoke, naiveNoResubscribe, naiveOverwrite } from '../../../scenarios/naive.js';
export { plan, workload } from '../../../scenarios/shape.js';
export type { Scenario } from '../../../scenarios/scenario.js';
export { ratio, type FaultPlan } from '../../../sim/faults.js';
export { runInterleaving, type InterleavingResult } from '../../../sim/world.js';
export { faultNames, capabilityFaults } from '../../../sim/faults.js';

export interface BesideOptions {
  seed: number;
  /** The client logic (default: the reference core). */
  client?: ClientUnderTest<any>;
  ledger?: Ledger;
  contentStore?: ContentStore;
  observe?: CacheObserveOptions;
}

/** Another fenced cache (any client logic) on its own virtual links to the world's server, on its clock. */
export function cacheBeside(world: SdkWorld, options: BesideOptions): FencedResourceCache {
  const jitter = createPrng(deriveSeed(options.seed, 2));
  let linkId = 1_000;
  return new FencedResourceCache({
    clock: world.clock,
    jitter: () => jitter.nextUint32(),
    requestTimeoutMs: simulatedRequestTimeoutMs,
    reconnect: false,
    ...(options.client === undefined ? {} : { client: options.client }),
    ...(options.ledger === undefined ? {} : { ledger: options.ledger }),
    ...(options.contentStore === undefined ? {} : { contentStore: options.contentStore }),
    ...(options.observe === undefined ? {} : { observe: options.observe }),
    connect: async () => {
      const id = linkId++;
      const [clientSide, serverSide] = createVirtualLink({ scheduler: world.clock, faults: { seed: deriveSeed(options.seed, id) }, log: null, linkId: id });
      await world.server.connect(serverSide);
      return clientSide;
    },
  });
}

/** A world with no faults on its links (the tests shape reads with the server's delays). */
export function quietWorld(seed: number, readDelayMs: (uri: string, readCount: number) => number): SdkWorld {
  return createSdkWorld({ seed, server: { readDelayMs } });
}
