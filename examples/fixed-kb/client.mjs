// The knowledge-base client of ../naive-kb, fixed:
// - every read gets a per-URI ordinal, and a response is kept only when no later read was kept already
//   (a slow, early read can no longer overwrite a newer one);
// - unwatch bumps the URI's ordinal, so reads issued before it are discarded when they come back;
// - notifications are coalesced (a 250 ms debounce, one read in flight per URI, one trailing re-read);
// - every (re)connect subscribes to every watched URI again and re-reads it; notifications of an old
//   connection are ignored;
// - a periodic re-read every 10 s catches anything a lost notification would have left stale;
// - a read answered with any other error (a server failing for a moment) is made again after the debounce:
//   the change it was sent for is still unread;
// - a revocation (from the authorization feed, or a read answered -32003) drops the cached text at once;
// - a subscribe the server answers with an error (it made no subscription) is sent again a second later,
//   while the URI is watched on the same connection;
// - an unsubscribe is sent again every 10 s until the server acknowledges it (a lost ACK and a lost
//   request look alike), at once after an error answer (the server still holds it), until the URI is watched
//   again or the connection changes;
// - cached text is served only while its last successful read is under 19 s old (the server's 20 s
//   authorization lease, with a second of margin): through a long outage it serves nothing rather than
//   content it can no longer vouch for;
// - a notification, and the content item of a read, are matched to the watched URI by equivalence (RFC 3986
//   normalisation: `FILE:///a`, `file:///%61` and `file:///./a` name one resource), not by spelling: a
//   respelled notification is read at once instead of waiting for the periodic re-read.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { sameResource } from 'fencesim';

const debounceMs = 250;
const rereadEveryMs = 10_000;
const permissionDenied = -32003;
const notFound = [-32002, -32602];
const unsubscribeTimeoutMs = 10_000;
const subscribeRetryMs = 1_000;
const leaseMs = 19_000;

export default {
  name: 'fixed-kb',
  description: 'the naive knowledge-base client with read ordinals, resubscription and a periodic re-read',
  features: { subscriptions: true, revocationFeed: true },
  start(env) {
    const watched = new Map(); // uri -> { subject, issued, kept, text, inFlight, dirty, timer }
    const denied = new Set(); // `${subject} ${uri}`
    let client = null;
    let closed = false;

    function entry(uri) {
      return watched.get(uri);
    }

    /** The watched URI that `uri` names, however it is spelled, or undefined. */
    function watchedAs(uri) {
      if (watched.has(uri)) return uri;
      for (const key of watched.keys()) if (sameResource(key, uri)) return key;
      return undefined;
    }

    async function read(uri) {
      const state = entry(uri);
      if (state === undefined || client === null) return;
      if (state.inFlight) {
        state.dirty = true;
        return;
      }
      state.inFlight = true;
      const ordinal = ++state.issued;
      let failed = false;
      const via = client;
      try {
        const result = await via.readResource({ uri });
        const item = result.contents.find((content) => sameResource(content.uri, uri));
        const now = entry(uri);
        if (item !== undefined && now === state && ordinal > state.kept && ordinal > state.closedAt) {
          state.kept = ordinal;
          state.keptAtMs = Date.now();
          state.text = item.text;
        }
      } catch (error) {
        const now = entry(uri);
        if (now === state && ordinal > state.kept && ordinal > state.closedAt) {
          if (error?.code === permissionDenied) {
            denied.add(`${state.subject} ${uri}`);
            state.kept = ordinal;
            state.text = undefined;
          } else if (notFound.includes(error?.code)) {
            state.kept = ordinal;
            state.text = undefined;
          } else if (ordinal === state.issued) {
            failed = true; // the newest read brought nothing: read again (an older read on its way is older news)
          }
        }
      } finally {
        state.inFlight = false;
        if (state.dirty && entry(uri) === state) {
          state.dirty = false;
          read(uri);
        } else if (failed) scheduleRead(uri);
      }
    }

    function scheduleRead(uri) {
      const state = entry(uri);
      if (state === undefined || state.timer !== null) return;
      state.timer = setTimeout(() => {
        state.timer = null;
        read(uri);
      }, debounceMs);
    }

    async function subscribe(uri) {
      const via = client;
      if (via === null) return;
      await holdSubscription(uri, via);
      await read(uri);
    }

    // A connection that closed rejects its requests after onclose cleared `client`: only the live one retries.
    async function holdSubscription(uri, via) {
      const failed = await via.subscribeResource({ uri }).then(() => false, () => true);
      if (!failed) return;
      setTimeout(() => {
        if (!closed && client === via && watched.has(uri)) holdSubscription(uri, via);
      }, subscribeRetryMs);
    }

    function unsubscribe(uri, via) {
      via.unsubscribeResource({ uri }, { timeout: unsubscribeTimeoutMs }).catch(() => {
        if (!closed && client === via && !watched.has(uri)) unsubscribe(uri, via);
      });
    }

    async function open() {
      const transport = await env.connect();
      const next = new Client({ name: 'fixed-kb', version: '1.0.0' });
      next.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        if (next !== client) return; // an old connection's notification
        const uri = watchedAs(notification.params.uri);
        if (uri !== undefined) scheduleRead(uri);
      });
      next.onclose = () => {
        if (client === next) client = null;
        if (!closed) open().catch(() => {});
      };
      await next.connect(transport);
      if (closed) return next.close();
      client = next;
      for (const uri of watched.keys()) subscribe(uri);
    }
    open().catch(() => {});

    const interval = setInterval(() => {
      for (const uri of watched.keys()) read(uri);
    }, rereadEveryMs);

    return {
      watch(uri, subject) {
        const before = entry(uri);
        watched.set(uri, { subject, issued: before?.issued ?? 0, kept: before?.issued ?? 0, closedAt: before?.issued ?? 0, text: undefined, keptAtMs: 0, inFlight: false, dirty: false, timer: null });
        denied.delete(`${subject} ${uri}`);
        subscribe(uri);
      },
      unwatch(uri) {
        const state = entry(uri);
        if (state === undefined) return;
        watched.delete(uri);
        if (state.timer !== null) clearTimeout(state.timer);
        if (client !== null) unsubscribe(uri, client);
      },
      get(uri, subject) {
        const state = entry(uri);
        if (state === undefined || denied.has(`${subject} ${uri}`)) return undefined;
        return Date.now() - state.keptAtMs < leaseMs ? state.text : undefined;
      },
      learnRevocation(uri, subject, allowed) {
        if (allowed) denied.delete(`${subject} ${uri}`);
        else denied.add(`${subject} ${uri}`);
        if (!allowed && entry(uri)?.subject === subject) entry(uri).text = undefined;
      },
      async close() {
        closed = true;
        clearInterval(interval);
        await client?.close();
      },
    };
  },
};
