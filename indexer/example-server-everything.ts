/**
 * The README example, runnable: `npm run build && node dist/indexer/example-server-everything.js [QUERY]`.
 * Starts @modelcontextprotocol/server-everything over stdio, subscribes the fenced cache to its static
 * document resources, indexes the cache's outbox into PGlite + pgvector through the indexer runtime (with
 * the deterministic fake embedding; pass your own `embed` in production) and queries the index.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FencedResourceCache } from '../adapters/mcp-sdk/cache/fenced-cache.js';
import { dimensions } from './embedding.js';
import { openPgliteStore } from './pg-store.js';
import { IndexerRuntime } from './runtime.js';

const serverScript = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

export async function indexServerEverything(query: string): Promise<{ uris: string[]; hits: { uri: string; distance: number; body: string }[] }> {
  const { store, close } = await openPgliteStore(dimensions);
  const cache = new FencedResourceCache({ connect: async () => new StdioClientTransport({ command: process.execPath, args: [serverScript, 'stdio'], stderr: 'ignore' }) });
  const runtime = new IndexerRuntime({ store, config: { debounceMsDefault: 200, debounceMsByType: {} } });
  runtime.attach(cache);
  try {
    await cache.start();
    const listed = await cache.client!.listResources();
    const uris = listed.resources.map((resource) => resource.uri).filter((uri) => uri.startsWith('demo://resource/static/document/'));
    for (const uri of uris) cache.subscribe(uri, 'alice');
    for (let waitedMs = 0; waitedMs < 20_000 && !uris.every((uri) => runtime.indexerState.durable.meta[uri]?.status === 'synced'); waitedMs += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await runtime.idle();
    }
    const hits = (await runtime.query(query, 3)).map((hit) => ({ uri: hit.uri, distance: Number(hit.distance.toFixed(3)), body: hit.body.slice(0, 80) }));
    return { uris, hits };
  } finally {
    runtime.close();
    await cache.close();
    await close();
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const query = process.argv[2] ?? 'architecture of the server and its features';
  const { uris, hits } = await indexServerEverything(query);
  console.log(`indexed ${uris.length} resources into PGlite; nearest chunks to ${JSON.stringify(query)}:`);
  for (const hit of hits) console.log(`  ${hit.distance}  ${hit.uri}  ${JSON.stringify(hit.body)}`);
}
