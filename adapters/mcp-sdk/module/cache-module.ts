/**
 * Reducer clients and the fenced cache through the module contract: `cacheModule()` is a `ModuleClient`
 * that runs a `FencedResourceCache` (by default over the reference core, or over any `ClientUnderTest`)
 * on the connections the harness gives it. It claims every feature the reducer supports; with
 * `durable`/`recover` it persists its ledger in `env.store` after every step and recovers from it.
 * The reference core's ledger is persisted as its JSON text: the harness's store writes it when a crash loads
 * it (module-store.ts), another store gets it from `SharedJson` (its steps copy what they change, so only the
 * changed records are written again); any other reducer's ledger is saved as the object.
 */
import { referenceClient } from '../../../core/reducer.js';
import type { Ledger } from '../../../core/state.js';
import type { ClientConfig, ClientUnderTest } from '../../../core/types.js';
import { FencedResourceCache, type SdkConnectionFactory } from '../cache/fenced-cache.js';
import type { ModuleClient, ModuleHandle } from './contract.js';
import type { JsonStore } from './module-store.js';
import { SharedJson } from './shared-json.js';

export interface CacheModuleOptions {
  /** The reducer the cache runs (default: the reference core). */
  client?: ClientUnderTest<any>;
  config?: Partial<ClientConfig>;
  /** The module's name (default: `fenced-cache` for the reference core, else `fenced-cache/<reducer name>`). */
  name?: string;
  /** The SDK binding per connection (default: SDK 1.x; `v2Connection()` from `fencesim/mcp-sdk/v2` speaks 2026-07-28 too). */
  connection?: SdkConnectionFactory;
}

export function cacheModule(options: CacheModuleOptions = {}): ModuleClient {
  const reducer = options.client ?? referenceClient;
  const recovers = reducer.durable !== undefined && reducer.recover !== undefined;
  return {
    name: options.name ?? (reducer === referenceClient ? 'fenced-cache' : `fenced-cache/${reducer.name}`),
    description: `FencedResourceCache running ${reducer.name}`,
    features: { subscriptions: true, catalogs: true, revocationFeed: true, crashRecovery: recovers },
    start(env): ModuleHandle {
      const stored = recovers ? env.store?.load() : undefined;
      const ledger = (typeof stored === 'string' ? JSON.parse(stored) : stored) as Ledger | undefined;
      const cache = new FencedResourceCache({
        client: reducer,
        connect: env.connect,
        ...(options.config === undefined ? {} : { config: options.config }),
        ...(options.connection === undefined ? {} : { connection: options.connection }),
        ...(ledger === undefined ? {} : { ledger }),
        // Math.random is the harness's seeded PRNG during a run (the default jitter is crypto random).
        jitter: () => Math.floor(Math.random() * 0x1_0000_0000),
        reconnect: { delayMs: 100, delayMsMax: 5_000 },
      });
      if (recovers && env.store !== undefined) {
        // The core replaces its ledger object whenever the ledger changes: persist each new one (as written to disk).
        const store = env.store;
        const durable = reducer.durable!;
        // The reference core never changes a ledger it returned (copy-on-write): the harness's store writes its
        // text when a crash loads it (module-store.ts); another store gets the text, sharing unchanged records.
        const copyOnWrite = reducer === referenceClient;
        // Asked of the store itself, not by instanceof: a client module loads cacheModule through the package
        // (`fencesim/module`), which need not be the copy the harness runs from (vitest's sources, bench/'s build).
        const unchanging = copyOnWrite && typeof (store as Partial<JsonStore>).saveUnchanging === 'function' ? (store as JsonStore) : null;
        const json = copyOnWrite && unchanging === null ? new SharedJson() : null;
        let saved: unknown = undefined;
        cache.onStep(() => {
          const ledger = durable(cache.clientState);
          if (ledger === saved) return;
          saved = ledger;
          if (unchanging !== null) unchanging.saveUnchanging(ledger);
          else store.save(json === null ? ledger : json.write(ledger));
        });
      }
      cache.start().catch(() => undefined); // a failed first connect is retried by the reconnect policy
      return {
        watch: (uri, subject) => cache.subscribe(uri, subject),
        unwatch: (uri) => cache.unsubscribe(uri),
        // The contract's get is free of side effects: peek serves without recording a serve in the cache's metrics.
        get: (uri, subject) => {
          const result = cache.peek(uri, subject);
          return result.served ? result.text : undefined;
        },
        learnRevocation: (uri, subject, allowed) => (allowed ? cache.grant(subject, uri) : cache.revoke(subject, uri)),
        list: () => cache.discover(),
        close: () => cache.close(),
      };
    },
  };
}
