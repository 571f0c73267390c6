// The SDK v2 Client (`@modelcontextprotocol/client` 2.x) with its built-in response cache, used the way its
// documentation describes, as a knowledge-base client:
// - one `Client` per connection, `versionNegotiation: { mode: 'auto' }`, over the transport the harness
//   gives (`env.connect()`; the Client probes the era in place);
// - one `InMemoryResponseCacheStore` for the process, handed to every Client (`responseCacheStore`), with
//   `cachePartition` = the subject the application reads as, and `defaultCacheTtlMs` for servers whose
//   results carry no `ttlMs` (every 2025-11-25 server);
// - the application asks `client.readResource({ uri })` (default `cacheMode: 'use'`) whenever it needs the
//   content — on watch, on every `notifications/resources/updated` (the Client evicts the entry itself
//   before the handler runs), and every second — and shows what that call returned;
// - subscriptions: `resources/subscribe` on 2025-11-25 connections, `client.listen({ resourceSubscriptions })`
//   on 2026-07-28 ones (re-sent after every reconnect: the SDK never re-listens by itself);
// - a read answered with permission denied (-32003) or not found (-32602 / -32002) stops serving the URI.
// Nothing here fences versions: the cache is the SDK's. See README.md for what the gate finds.
import { Client, InMemoryResponseCacheStore } from '@modelcontextprotocol/client';

const pollEveryMs = 1_000;
const defaultCacheTtlMs = 5_000;
const permissionDenied = -32003;
const notFound = [-32002, -32602];

export default {
  name: 'v2-builtin-cache',
  description: 'the SDK v2 Client and its built-in response cache (ttlMs / cacheScope), as documented',
  features: { subscriptions: true, revocationFeed: true },
  start(env) {
    const store = new InMemoryResponseCacheStore({ maxEntries: 512 });
    const watched = new Map(); // uri -> { subject, text }
    const denied = new Set(); // `${subject} ${uri}`
    let client = null;
    let listen = null;
    let closed = false;

    async function read(uri) {
      const state = watched.get(uri);
      const via = client;
      if (state === undefined || via === null) return;
      try {
        const result = await via.readResource({ uri });
        if (watched.get(uri) === state) state.text = result.contents[0]?.text;
      } catch (error) {
        if (watched.get(uri) !== state) return;
        if (error?.code === permissionDenied) denied.add(`${state.subject} ${uri}`);
        if (error?.code === permissionDenied || notFound.includes(error?.code)) state.text = undefined;
      }
    }

    async function subscribeAll() {
      const via = client;
      if (via === null) return;
      if (via.getProtocolEra() === 'modern') {
        await listen?.close().catch(() => {});
        listen = watched.size === 0 ? null : await via.listen({ resourceSubscriptions: [...watched.keys()] }).catch(() => null);
      } else {
        for (const uri of watched.keys()) await via.subscribeResource({ uri }).catch(() => {});
      }
      for (const uri of watched.keys()) read(uri);
    }

    async function open() {
      const transport = await env.connect();
      const subject = [...watched.values()][0]?.subject ?? '';
      const next = new Client(
        { name: 'v2-builtin-cache', version: '1.0.0' },
        { capabilities: {}, versionNegotiation: { mode: 'auto' }, responseCacheStore: store, cachePartition: subject, defaultCacheTtlMs },
      );
      next.setNotificationHandler('notifications/resources/updated', (notification) => {
        if (next === client) read(notification.params.uri);
      });
      next.onclose = () => {
        if (client === next) {
          client = null;
          listen = null;
        }
        if (!closed) open().catch(() => {});
      };
      await next.connect(transport);
      if (closed) return next.close();
      client = next;
      await subscribeAll();
    }
    open().catch(() => {});

    const interval = setInterval(() => {
      for (const uri of watched.keys()) read(uri);
    }, pollEveryMs);

    return {
      watch(uri, subject) {
        watched.set(uri, { subject, text: undefined });
        denied.delete(`${subject} ${uri}`);
        subscribeAll().catch(() => {});
      },
      unwatch(uri) {
        if (!watched.delete(uri)) return;
        if (client?.getProtocolEra() === 'modern') subscribeAll().catch(() => {});
        else client?.unsubscribeResource({ uri }).catch(() => {});
      },
      get(uri, subject) {
        const state = watched.get(uri);
        if (state === undefined || denied.has(`${subject} ${uri}`)) return undefined;
        return state.text;
      },
      learnRevocation(uri, subject, allowed) {
        if (allowed) denied.delete(`${subject} ${uri}`);
        else {
          denied.add(`${subject} ${uri}`);
          if (watched.get(uri)?.subject === subject) watched.get(uri).text = undefined;
        }
      },
      async close() {
        closed = true;
        clearInterval(interval);
        await client?.close();
      },
    };
  },
};
