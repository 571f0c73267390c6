// A knowledge-base client as people write it against @modelcontextprotocol/sdk: subscribe, and on every
// `notifications/resources/updated` read the resource again and overwrite the cached text in a Map. When the
// connection drops it reconnects, but does not subscribe again. fencesim catches it (see README.md).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export default {
  name: 'naive-kb',
  description: 'subscribe, read on every update and overwrite a Map; reconnect without resubscribing',
  features: { subscriptions: true },
  start(env) {
    const cache = new Map(); // uri -> text
    const watched = new Set();
    let client = null;
    let closed = false;

    async function open() {
      const transport = await env.connect();
      const next = new Client({ name: 'naive-kb', version: '1.0.0' });
      next.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
        const uri = notification.params.uri;
        if (!watched.has(uri)) return;
        const result = await next.readResource({ uri });
        cache.set(uri, result.contents[0].text); // whatever arrives last wins
      });
      next.onclose = () => {
        if (!closed) open().catch(() => {}); // reconnect, but forget to resubscribe
      };
      await next.connect(transport);
      client = next;
    }
    const ready = open();

    async function subscribe(uri) {
      await ready;
      await client.subscribeResource({ uri });
      const result = await client.readResource({ uri });
      cache.set(uri, result.contents[0].text);
    }

    return {
      watch(uri) {
        watched.add(uri);
        subscribe(uri).catch(() => {});
      },
      unwatch(uri) {
        watched.delete(uri);
        cache.delete(uri);
        client?.unsubscribeResource({ uri }).catch(() => {});
      },
      get(uri) {
        return cache.get(uri);
      },
      async close() {
        closed = true;
        await client?.close();
      },
    };
  },
};
