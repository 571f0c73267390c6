// FencedResourceCache over the SDK v2 Client (`@modelcontextprotocol/client` 2.x, `versionNegotiation: 'auto'`)
// as a module client: on a 2026-07-28 server it listens (subscriptions/listen, watched from the ack on),
// honours ttlMs and cacheScope, and keeps the same `get(uri, subject)`; on a 2025-11-25 server it falls back
// to `initialize` and resources/subscribe. Gate it with `--protocol 2026-07-28` (or `both`).
import { cacheModule } from 'fencesim/module';
import { v2Connection } from 'fencesim/mcp-sdk/v2';

export default cacheModule({ name: 'fenced-cache-v2', connection: v2Connection() });
