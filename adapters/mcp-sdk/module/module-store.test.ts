/**
 * The harness's store of crash-recovering module clients: `save` keeps JSON (strings as they are), and
 * `saveUnchanging` loads as exactly the text `save(JSON.stringify(value))` would have kept; cacheModule uses it
 * for the reference core's ledger, and gives any other store the SharedJson text, as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheModule } from './cache-module.js';
import type { ModuleEnv, ModuleStore } from './contract.js';
import { JsonStore } from './module-store.js';

describe('JsonStore', () => {
  it('loads a value saved unchanging as its JSON text, and the last save wins', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (first, second) => {
        const store = new JsonStore();
        expect(store.load()).toBeUndefined();
        store.saveUnchanging(first);
        expect(store.load()).toBe(JSON.stringify(first));
        store.save(second);
        expect(store.load()).toEqual(JSON.parse(JSON.stringify(second)));
        store.save('text');
        store.saveUnchanging(second);
        expect(store.load()).toBe(JSON.stringify(second));
      }),
    );
  });

  it('loads a string saved as that string, and an object as a copy', () => {
    const store = new JsonStore();
    store.save('{"a":1}');
    expect(store.load()).toBe('{"a":1}');
    const object = { a: [1, 2] };
    store.save(object);
    object.a.push(3);
    expect(store.load()).toEqual({ a: [1, 2] });
  });
});

describe('cacheModule with a store of its own (not the harness store)', () => {
  it('saves the reference ledger as its JSON text (SharedJson) after a step', async () => {
    const saved: unknown[] = [];
    const store: ModuleStore = { load: () => undefined, save: (value) => saved.push(value) };
    const env: ModuleEnv = { connect: () => Promise.reject(new Error('offline')), store };
    const handle = await cacheModule().start(env);
    handle.watch('file:///a.md', 'alice');
    await handle.close();
    expect(saved.length).toBeGreaterThan(0);
    for (const value of saved) {
      expect(typeof value).toBe('string');
      expect(JSON.stringify(JSON.parse(value as string))).toBe(value);
    }
  });
});
