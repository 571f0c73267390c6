#!/usr/bin/env node
// A small MCP server on SDK v2 (`@modelcontextprotocol/server` 2.x) over stdio, speaking both eras from one
// factory (`serveStdio`): 2026-07-28 to a client that opens with `server/discover` (listen/ack, tagged
// updates, ttlMs/cacheScope on results), 2025-11-25 to one that opens with `initialize` (resources/subscribe).
//
// Resources: note://a and note://b (text, ttlMs 2000, private) and note://public (ttlMs 10000, public).
// Tool `toggle-subscriber-updates` (as in server-everything): starts or stops bumping every resource every
// 300 ms; each bump sends `notifications/resources/updated` — on 2026-07-28 the v2 router stamps one copy per
// listen whose honored filter holds the URI, on 2025-11-25 it goes to subscribed URIs only.
//
// Used by the probe tests (fencesim probe -- node examples/v2-server/server.mjs).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const versions = { 'note://a': 1, 'note://b': 1, 'note://public': 1 };
const hints = { 'note://a': { ttlMs: 2_000, cacheScope: 'private' }, 'note://b': { ttlMs: 2_000, cacheScope: 'private' }, 'note://public': { ttlMs: 10_000, cacheScope: 'public' } };
const instances = new Set();
let ticker = null;

function bump() {
  for (const uri of Object.keys(versions)) {
    versions[uri] += 1;
    for (const instance of instances) instance.notify(uri);
  }
}

function createServer(context) {
  const mcp = new McpServer({ name: 'fencesim-v2-example', version: '0.1.0' }, { capabilities: { resources: { subscribe: true, listChanged: true }, tools: {} } });
  const subscribed = new Set();
  const legacy = context.era === 'legacy';
  for (const uri of Object.keys(versions)) {
    mcp.registerResource(uri, uri, { mimeType: 'text/plain', cacheHint: hints[uri] }, async () => ({ contents: [{ uri, mimeType: 'text/plain', text: `${uri} version ${versions[uri]}` }] }));
  }
  mcp.registerTool('toggle-subscriber-updates', { description: 'start or stop bumping every resource every 300 ms' }, async () => {
    if (ticker === null) ticker = setInterval(bump, 300);
    else {
      clearInterval(ticker);
      ticker = null;
    }
    return { content: [{ type: 'text', text: ticker === null ? 'updates stopped' : 'updates started' }] };
  });
  if (legacy) {
    mcp.server.setRequestHandler('resources/subscribe', async (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    mcp.server.setRequestHandler('resources/unsubscribe', async (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }
  const instance = {
    notify(uri) {
      if (legacy && !subscribed.has(uri)) return;
      mcp.server.sendResourceUpdated({ uri }).catch(() => undefined);
    },
  };
  instances.add(instance);
  mcp.server.onclose = () => instances.delete(instance);
  return mcp;
}

const handle = serveStdio(createServer, { legacy: 'serve' });
const stop = () => {
  if (ticker !== null) clearInterval(ticker);
  handle.close().finally(() => process.exit(0));
};
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
