/**
 * One deterministic world over the real SDK: a `FencedResourceCache` (real `Client`) and a `SimServer`
 * (real low-level `Server`) joined by virtual links on one `VirtualClock`. Each (re)connect opens a new
 * link whose fault seed is derived from the world seed and the link index, so a run is a function of
 * (seed, faults, the calls the test makes).
 */
import type { ClientConfig, ClientEffect, ClientInput } from '../../../core/types.js';
import { createPrng, deriveSeed } from '../../../sim/prng.js';
import { VirtualClock } from '../transport/clock.js';
import { FencedResourceCache, type EffectMeta } from '../cache/fenced-cache.js';
import { ResourceStore, SimServer, type SimServerOptions } from './sim-server.js';
import { createVirtualLink, type LinkLogEntry, type VirtualLink, type VirtualLinkFaults } from '../transport/virtual-transport.js';

export interface SdkWorldOptions {
  seed: number;
  /** Faults of every link (the seed is derived per link). */
  faults?: Omit<Partial<VirtualLinkFaults>, 'seed'>;
  server?: Omit<SimServerOptions, 'sleep'>;
  config?: Partial<ClientConfig>;
  /** Reconnect delay after a dropped link (virtual ms). */
  reconnectDelayMs?: number;
}

export interface SdkWorld {
  clock: VirtualClock;
  store: ResourceStore;
  server: SimServer;
  cache: FencedResourceCache;
  /** Every link event of every connection, in order. */
  log: LinkLogEntry[];
  links: VirtualLink[];
  effects: Array<{ effect: ClientEffect; meta: EffectMeta }>;
  inputs: ClientInput[];
  /** Closes the current link (both ends), as a dropped connection. */
  disconnect(): void;
}

/** The SDK's request timeout during a simulated run: the largest Node timer (the core has its own). */
export const simulatedRequestTimeoutMs = 2_147_483_647;

export function createSdkWorld(options: SdkWorldOptions): SdkWorld {
  const clock = new VirtualClock();
  const store = new ResourceStore();
  const server = new SimServer(store, { ...options.server, sleep: (ms) => clock.sleep(ms) });
  const log: LinkLogEntry[] = [];
  const links: VirtualLink[] = [];
  const jitter = createPrng(deriveSeed(options.seed, 1));
  const cache = new FencedResourceCache({
    clock,
    jitter: () => jitter.nextUint32(),
    config: options.config,
    requestTimeoutMs: simulatedRequestTimeoutMs,
    reconnect: { delayMs: options.reconnectDelayMs ?? 500, delayMsMax: 8_000 },
    connect: async () => {
      const linkId = links.length;
      const [clientSide, serverSide] = createVirtualLink({
        scheduler: clock,
        faults: { ...options.faults, seed: deriveSeed(options.seed, 100 + linkId) },
        log,
        linkId,
      });
      links.push(clientSide.link);
      await server.connect(serverSide);
      return clientSide;
    },
  });
  const effects: SdkWorld['effects'] = [];
  const inputs: ClientInput[] = [];
  cache.onEffect((effect, meta) => effects.push({ effect, meta }));
  cache.onInput((input) => inputs.push(input));
  return {
    clock,
    store,
    server,
    cache,
    log,
    links,
    effects,
    inputs,
    disconnect: () => links[links.length - 1]?.close('test: disconnect'),
  };
}
