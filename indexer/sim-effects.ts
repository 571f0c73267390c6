/**
 * Carrying out the indexer's effects in the simulation: timers, the faulty embedding service (timeouts,
 * rate limits with retry-after, an outage window, partial batches, slowness), the faulty vector store
 * (partial writes, lost acks, delayed writes; a transactional store has neither partial writes nor lost
 * acks) and the hash pass (the source's listing and the store's summary).
 */
import { fakeModel } from './embedding.js';
import type { SimPort } from './sim-port.js';
import type { IndexerEffect, IndexerInput, VectorWrite } from './types.js';

export function carryOut(world: SimPort, _input: IndexerInput, effects: readonly IndexerEffect[]): void {
  for (const effect of effects) {
    switch (effect.type) {
      case 'TimerArmed':
        world.at(effect.atMs, { kind: 'input', epoch: world.epoch, input: { type: 'TimerFired', nowMs: 0, kind: effect.kind, key: effect.key } });
        break;
      case 'EmbedRequested': embed(world, effect); break;
      case 'VectorWriteRequested': writeStore(world, effect.write); break;
      case 'HashPassRequested': hashPass(world, effect.passId); break;
      case 'SemanticDecided':
        world.line(`decided ${effect.uri} v${effect.sequence} ${effect.model} vs v${effect.baseSequence ?? '-'} similarity ${effect.similarity === null ? '-' : effect.similarity.toFixed(3)} -> ${effect.refresh ? 'refresh' : 'metadata only'}`);
        break;
      case 'IndexPublished': world.line(`published ${effect.uri} v${effect.sequence} ${effect.model}`); break;
      case 'ReadsSwitched': world.line(`reads switched ${effect.previous} -> ${effect.model}`); break;
      case 'DriftFound':
        world.metrics[effect.kind === 'source' ? 'driftSource' : effect.kind === 'store' ? 'driftStore' : 'driftSemantic']++;
        world.line(`reconciliation found ${effect.kind} drift on ${effect.uri} v${effect.sequence}`); break;
      case 'MigrationStarted': world.fired('model-upgrade'); world.line(`migration to ${effect.model} started`); break;
      default: break;
    }
  }
}

function embed(world: SimPort, effect: Extract<IndexerEffect, { type: 'EmbedRequested' }>): void {
  const { chooser, plan } = world;
  const reply = (delayMs: number, input: IndexerInput): void => world.at(world.nowMs + delayMs, { kind: 'input', epoch: world.epoch, input });
  const fail = (delayMs: number, reason: 'timeout' | 'rate-limited' | 'outage', retryAfterMs: number): void =>
    reply(delayMs, { type: 'EmbedFailed', nowMs: 0, requestId: effect.requestId, reason, retryAfterMs });
  if (world.fault('embed-outage') && world.nowMs >= plan.outageStartMs && world.nowMs < plan.outageEndMs) {
    world.fired('embed-outage');
    return fail(30, 'outage', 0);
  }
  if (world.fault('embed-timeout') && chooser.chance('server', 'embed.timeout', 1, 8)) {
    world.fired('embed-timeout');
    return fail(2_000, 'timeout', 0);
  }
  if (world.fault('embed-rate-limit') && chooser.chance('server', 'embed.rate-limit', 1, 8)) {
    world.fired('embed-rate-limit');
    return fail(20, 'rate-limited', 500 + chooser.draw('server', 'embed.retry-after', 25) * 100);
  }
  let latencyMs = 40 + chooser.draw('server', 'embed.latency', 20) * 10;
  if (world.fault('embed-slow') && chooser.chance('server', 'embed.slow', 1, 5)) {
    world.fired('embed-slow');
    latencyMs += 1_000 + chooser.draw('server', 'embed.slow-ms', 30) * 100;
  }
  const model = fakeModel(effect.model);
  const partial = effect.texts.length > 1 && world.fault('embed-partial') && chooser.chance('server', 'embed.partial', 1, 12);
  if (partial) world.fired('embed-partial');
  const vectors = effect.texts.map((text, index) => (partial && index === effect.texts.length - 1 ? null : model.embed(text)));
  world.metrics.embedCalls++;
  if (effect.model !== world.state.durable.models.active) world.metrics.embedCallsMigration++;
  reply(latencyMs, { type: 'EmbedResponded', nowMs: 0, requestId: effect.requestId, vectors, model: effect.model });
}

function writeStore(world: SimPort, write: VectorWrite): void {
  const { chooser } = world;
  const transactional = world.store.profile === 'transactional';
  const writeIndex = world.writes.push(write) - 1;
  let delayMs = 5 + chooser.draw('server', 'store.latency', 25);
  if (world.fault('store-delayed-write') && chooser.chance('server', 'store.delayed', 1, 6)) {
    world.fired('store-delayed-write');
    delayMs += 1_000 + chooser.draw('server', 'store.delay-ms', 50) * 100;
  }
  let rowsMax = write.rows.length;
  if (!transactional && write.rows.length > 1 && world.fault('store-partial-write') && chooser.chance('server', 'store.partial', 1, 6)) {
    world.fired('store-partial-write');
    rowsMax = chooser.draw('server', 'store.partial-rows', write.rows.length);
  }
  let ack = rowsMax === write.rows.length;
  if (ack && !transactional && world.fault('store-lost-ack') && chooser.chance('server', 'store.lost-ack', 1, 6)) {
    world.fired('store-lost-ack');
    ack = false;
  }
  world.at(world.nowMs + delayMs, { kind: 'store-apply', writeIndex, rowsMax, ack, epoch: world.epoch, storeEpoch: world.storeEpoch });
}

function hashPass(world: SimPort, passId: number): void {
  const sources = [];
  for (const uri of world.uris) {
    const truth = world.truth(uri);
    if (truth === undefined) continue;
    const text = truth.model === null ? null : renderText(world, uri, truth.sequence);
    sources.push({ uri, sequence: truth.sequence, deleted: truth.deleted, digest: truth.digest, contentType: world.contentTypeOf(uri), text });
  }
  world.at(world.nowMs + 50, { kind: 'input', epoch: world.epoch, input: { type: 'HashPassObserved', nowMs: 0, passId, sources, store: world.store.summaries() } });
}

function renderText(world: SimPort, uri: string, sequence: number): string | null {
  return world.textOf(uri, sequence);
}
