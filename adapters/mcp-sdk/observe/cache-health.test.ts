/**
 * `cache.health()` on the fenced cache over the simulator's SDK transport: the verdict follows the session,
 * and a core that throws stops the cache with a CACHE_STOPPED reason.
 */
import { describe, expect, it } from 'vitest';
import { referenceClient } from '../../../core/reducer.js';
import type { ClientUnderTest } from '../../../core/types.js';
import { cacheBeside, quietWorld } from './sim-support.js';

describe('cache.health() over the SDK transport', () => {
  it('healthy while connected and subscribed; DISCONNECTED once the link drops and no reconnect is allowed', async () => {
    const world = quietWorld(31, () => 0);
    world.store.set('mem://docs/a', 'a v1');
    const cache = cacheBeside(world, { seed: 31 });
    expect(cache.health().reasons.map((reason) => reason.code)).toEqual(['NEVER_CONNECTED']);
    await world.clock.runUntil(cache.start());
    cache.subscribe('mem://docs/a');
    await world.clock.advanceBy(100);
    expect(cache.health()).toMatchObject({ verdict: 'healthy', connected: true, wantedUris: 1, subscribedUris: 1, sessionGeneration: 1 });
    await cache.close();
    expect(cache.health()).toMatchObject({ verdict: 'unhealthy', connected: false, reasons: [{ code: 'DISCONNECTED', severity: 'critical' }] });
  });

  it('a core that throws: the cache stops and health() says why', async () => {
    const world = quietWorld(32, () => 0);
    let steps = 0;
    const brittle: ClientUnderTest<unknown> = {
      ...referenceClient,
      name: 'brittle',
      step: (state, input) => {
        if (++steps > 2) throw new Error('bug in the client');
        return referenceClient.step(state as never, input);
      },
    };
    const cache = cacheBeside(world, { seed: 32, client: brittle });
    await world.clock.runUntil(cache.start());
    cache.subscribe('mem://docs/a');
    cache.subscribe('mem://docs/b');
    const health = cache.health();
    expect(health.verdict).toBe('unhealthy');
    expect(health.reasons[0]).toEqual({ code: 'CACHE_STOPPED', severity: 'critical', message: 'the cache stopped after a core error: SubscribeCommanded: bug in the client' });
    await cache.close();
  });
});
