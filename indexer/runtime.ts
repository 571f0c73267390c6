/**
 * The indexer runtime: the reference reducer run for real, over a FencedResourceCache's outbox (or any
 * feed of change entries), writing to Postgres + pgvector (PGlite in-process by default). It carries out
 * the reducer's effects with real timers and the user's embedding function, persists resource_meta and
 * the vector outbox after each step, and answers reads through the fenced read path. Steps run one at a
 * time in arrival order; the reducer decides everything, this file only does the I/O.
 */
import { fakeModel } from './embedding.js';
import { readIndex, type ReadResult } from './read-path.js';
import { defaultConfig, initialState, step } from './reducer.js';
import type { PgStore } from './pg-store.js';
import type { ChangeEntry, EmbedFailure, IndexerConfig, IndexerEffect, IndexerInput, IndexerState, SourceObservation } from './types.js';

/** Thrown by an embedding function to report a typed failure (anything else counts as a timeout). */
export class EmbeddingError extends Error {
  constructor(readonly reason: EmbedFailure, readonly retryAfterMs = 0) {
    super(`embedding failed: ${reason}`);
  }
}

/** A production embedding: a batch of texts in, one vector (or null: missing from a partial batch) each. */
export type EmbedFunction = (model: string, texts: string[]) => Promise<(number[] | null)[]>;

export interface IndexerRuntimeOptions {
  store: PgStore;
  /** Default: the deterministic fake models (fake-a, fake-b), for tests and demos. */
  embed?: EmbedFunction;
  /** The source's listing for reconciliation (sequence, SHA-256, text of every resource). */
  listSource?: () => Promise<SourceObservation[]>;
  config?: Partial<IndexerConfig>;
  /** Called for every effect as it is carried out, with the runtime's clock (observability: IndexerObserver.effect). */
  onEffect?: (effect: IndexerEffect, nowMs: number) => void;
}

/** The part of FencedResourceCache the runtime subscribes to. */
export interface OutboxSource {
  onEffect(listener: (effect: { type: string } & Record<string, unknown>) => void): () => void;
}

export class IndexerRuntime {
  private state: IndexerState;
  private readonly queue: IndexerInput[] = [];
  private stepping = false;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private readonly embed: EmbedFunction;
  private readonly startMs = Date.now();

  constructor(private readonly options: IndexerRuntimeOptions) {
    this.state = initialState(defaultConfig(options.config));
    this.embed = options.embed ?? (async (model, texts) => texts.map((text) => fakeModel(model).embed(text)));
    this.submit({ type: 'Started', nowMs: this.nowMs() });
  }

  /** Feed one change entry (an OutboxEntryWritten plus its content). */
  enqueue(entry: ChangeEntry): void {
    this.submit({ type: 'ChangeArrived', nowMs: this.nowMs(), entry });
  }

  /** Index a fenced cache's outbox: upserts carry the body the fence accepted in the same step. */
  attach(cache: OutboxSource, contentType = 'document'): () => void {
    const accepted = new Map<string, string>();
    const subjects = new Map<string, string>();
    return cache.onEffect((effect) => {
      if (effect.type === 'VersionAccepted') accepted.set(String(effect.uri) + '#' + String(effect.digest), String(effect.text));
      if (effect.type === 'DerivedEntryWritten') subjects.set(String(effect.uri), String(effect.subject));
      if (effect.type !== 'OutboxEntryWritten') return;
      const uri = String(effect.uri);
      const digest = String(effect.digest);
      const operation = effect.operation as ChangeEntry['operation'];
      const text = operation === 'upsert' ? (accepted.get(uri + '#' + digest) ?? null) : null;
      accepted.delete(uri + '#' + digest);
      if (operation === 'upsert' && text === null) return;
      this.enqueue({ uri, sequence: Number(effect.sequence), operation, digest, contentType, text, subject: subjects.get(uri) ?? 'default' });
    });
  }

  /** What a retriever gets for one URI (the fenced read path over the rows SQL returns). */
  async read(uri: string): Promise<ReadResult> {
    return readIndex(this.state, uri, await this.options.store.rowsOf(uri));
  }

  /** The nearest published chunks to a query text, embedded with the model reads use. */
  async query(text: string, limit = 5): Promise<{ uri: string; position: number; seq: number; body: string; distance: number }[]> {
    const model = this.state.durable.models.active;
    const [vector] = await this.embed(model, [text]);
    if (vector === null || vector === undefined) throw new Error('the embedding returned no vector for the query');
    return this.options.store.nearest(vector, model, limit);
  }

  upgradeModel(model: string): void {
    this.submit({ type: 'ModelUpgradeRequested', nowMs: this.nowMs(), model });
  }

  get indexerState(): IndexerState {
    return this.state;
  }

  /** Resolves once no embedding, store write or non-periodic timer is outstanding. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private nowMs(): number {
    return Date.now() - this.startMs;
  }

  private submit(input: IndexerInput): void {
    if (this.closed) return;
    this.queue.push(input);
    if (this.stepping) return;
    this.stepping = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      await this.drainQueue();
    } finally {
      this.stepping = false;
    }
    this.wakeIdle();
  }

  private async drainQueue(): Promise<void> {
    while (this.queue.length > 0) {
      const input = this.queue.shift()!;
      const before = this.state.durable;
      // A timer may fire a millisecond before its deadline by this clock: it carries its deadline as the floor.
      const result = step(this.state, { ...input, nowMs: Math.max(input.nowMs, this.nowMs()) } as IndexerInput);
      this.state = result.state;
      await this.persist(before);
      for (const effect of result.effects) this.carryOut(effect);
    }
  }

  private async persist(before: IndexerState['durable']): Promise<void> {
    const after = this.state.durable;
    for (const uri of new Set([...Object.keys(before.meta), ...Object.keys(after.meta)])) {
      if (before.meta[uri] !== after.meta[uri]) await this.options.store.saveMeta(uri, after.meta[uri]);
    }
    if (before.outbox !== after.outbox) await this.options.store.saveOutbox(Object.values(after.outbox));
  }

  private carryOut(effect: IndexerEffect): void {
    this.options.onEffect?.(effect, this.nowMs());
    switch (effect.type) {
      case 'TimerArmed': return this.arm(effect.kind, effect.key, effect.atMs);
      case 'EmbedRequested': return this.track(this.embedBatch(effect));
      case 'VectorWriteRequested':
        return this.track(this.options.store.apply(effect.write).then(
          () => this.submit({ type: 'StoreAcked', nowMs: 0, writeId: effect.write.writeId }),
          () => undefined, // no ack: the reducer's store-retry timer sends it again
        ));
      case 'HashPassRequested': return this.track(this.hashPass(effect.passId));
      default:
    }
  }

  private async embedBatch(effect: Extract<IndexerEffect, { type: 'EmbedRequested' }>): Promise<void> {
    try {
      const vectors = await this.embed(effect.model, effect.texts);
      this.submit({ type: 'EmbedResponded', nowMs: 0, requestId: effect.requestId, vectors, model: effect.model });
    } catch (error) {
      const typed = error instanceof EmbeddingError ? error : new EmbeddingError('timeout');
      this.submit({ type: 'EmbedFailed', nowMs: 0, requestId: effect.requestId, reason: typed.reason, retryAfterMs: typed.retryAfterMs });
    }
  }

  private async hashPass(passId: number): Promise<void> {
    if (this.options.listSource === undefined) return;
    const sources = await this.options.listSource();
    const store = await this.options.store.summaries();
    this.submit({ type: 'HashPassObserved', nowMs: 0, passId, sources, store });
  }

  private arm(kind: string, key: string, atMs: number): void {
    const id = kind + ':' + key;
    const old = this.timers.get(id);
    if (old !== undefined) clearTimeout(old);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.submit({ type: 'TimerFired', nowMs: atMs, kind: kind as never, key });
    }, Math.max(0, atMs - this.nowMs()));
    if (kind === 'reconcile') timer.unref();
    this.timers.set(id, timer);
  }

  private track(work: Promise<void>): void {
    this.pending++;
    void work.finally(() => {
      this.pending--;
      this.wakeIdle();
    });
  }

  private isIdle(): boolean {
    if (this.stepping || this.pending > 0 || this.queue.length > 0) return false;
    for (const id of this.timers.keys()) if (!id.startsWith('reconcile:')) return false;
    return true;
  }

  private wakeIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters.splice(0);
    for (const resolve of waiters) resolve();
  }
}
