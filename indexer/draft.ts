/**
 * Copy-on-write access to an indexer state during one step: the input state is never mutated; a record
 * is copied the first time the step writes it, so a step costs what it touches. Effects are collected.
 */
import type {
  DurableState, IndexerConfig, IndexerEffect, IndexerState, ModelRegistry, SemanticTask, TimerKind, UriMeta, VectorWrite, VolatileState,
} from './types.js';

export class Draft {
  readonly config: IndexerConfig;
  readonly nowMs: number;
  readonly effects: IndexerEffect[] = [];
  private durable: DurableState;
  private volatile: VolatileState;
  private copied = { meta: false, outbox: false, embeddings: false, tasks: false, requests: false, timers: false };
  private readonly copiedMeta = new Set<string>();
  private readonly copiedBuckets = new Set<string>();

  constructor(state: IndexerState, nowMs: number) {
    this.config = state.config;
    this.nowMs = nowMs;
    this.durable = { ...state.durable };
    this.volatile = { ...state.volatile };
  }

  finish(): IndexerState {
    return { config: this.config, durable: this.durable, volatile: this.volatile };
  }

  emit(effect: IndexerEffect): void {
    this.effects.push(effect);
  }

  get d(): Readonly<DurableState> {
    return this.durable;
  }

  get v(): Readonly<VolatileState> {
    return this.volatile;
  }

  /** A writable copy of a URI's metadata row (undefined when there is none). */
  metaForWrite(uri: string): UriMeta | undefined {
    const row = this.durable.meta[uri];
    if (row === undefined) return undefined;
    if (this.copiedMeta.has(uri)) return row;
    this.ownRecord('meta');
    const copy: UriMeta = { ...row, indexed: { ...row.indexed } };
    this.durable.meta[uri] = copy;
    this.copiedMeta.add(uri);
    return copy;
  }

  putMeta(uri: string, row: UriMeta | undefined): void {
    this.ownRecord('meta');
    if (row === undefined) delete this.durable.meta[uri];
    else this.durable.meta[uri] = row;
    this.copiedMeta.add(uri);
  }

  putWrite(write: VectorWrite): void {
    this.ownRecord('outbox');
    this.durable.outbox[String(write.writeId)] = write;
  }

  dropWrite(writeId: number): void {
    this.ownRecord('outbox');
    delete this.durable.outbox[String(writeId)];
  }

  putEmbedding(model: string, chunkHash: string, vector: number[]): void {
    this.ownRecord('embeddings');
    const key = bucketOf(model, chunkHash);
    let bucket = this.durable.embeddings[key];
    if (!this.copiedBuckets.has(key)) {
      bucket = { ...bucket };
      this.durable.embeddings[key] = bucket;
      this.copiedBuckets.add(key);
    }
    bucket![chunkHash] = vector;
  }

  embedding(model: string, chunkHash: string): number[] | undefined {
    return this.durable.embeddings[bucketOf(model, chunkHash)]?.[chunkHash];
  }

  setModels(models: ModelRegistry): void {
    this.durable.models = models;
  }

  allocateWriteId(): number {
    return this.durable.nextWriteId++;
  }

  allocatePassId(): number {
    return this.durable.nextPassId++;
  }

  countPass(): void {
    this.durable.passesDone++;
  }

  /** A pass that a crash interrupted is not done: a restart runs the next one at once. */
  markPassCompleted(): void {
    this.durable.lastPassAtMs = this.nowMs;
  }

  allocateRequestId(): number {
    return this.volatile.nextRequestId++;
  }

  putTask(key: string, task: SemanticTask | undefined): void {
    this.ownRecord('tasks');
    const old = this.volatile.tasks[key];
    if (old !== undefined) this.putRequest(old.requestId, undefined);
    if (task === undefined) delete this.volatile.tasks[key];
    else {
      this.volatile.tasks[key] = task;
      this.putRequest(task.requestId, key);
    }
  }

  private putRequest(requestId: number, key: string | undefined): void {
    this.ownRecord('requests');
    if (key === undefined) delete this.volatile.requests[String(requestId)];
    else this.volatile.requests[String(requestId)] = key;
  }

  setBreaker(failures: number, openUntilMs: number): void {
    this.volatile.breakerFailures = failures;
    this.volatile.breakerOpenUntilMs = openUntilMs;
  }

  /** Arms (or re-arms) a timer; a TimerFired whose time is not the armed one is stale and ignored. */
  armTimer(kind: TimerKind, key: string, atMs: number): void {
    this.ownRecord('timers');
    this.volatile.timers[kind + ':' + key] = atMs;
    this.emit({ type: 'TimerArmed', kind, key, atMs });
  }

  timerAt(kind: TimerKind, key: string): number | undefined {
    return this.volatile.timers[kind + ':' + key];
  }

  disarmTimer(kind: TimerKind, key: string): void {
    if (this.volatile.timers[kind + ':' + key] === undefined) return;
    this.ownRecord('timers');
    delete this.volatile.timers[kind + ':' + key];
  }

  private ownRecord(name: keyof Draft['copied']): void {
    if (this.copied[name]) return;
    this.copied[name] = true;
    switch (name) {
      case 'meta': this.durable.meta = { ...this.durable.meta }; break;
      case 'outbox': this.durable.outbox = { ...this.durable.outbox }; break;
      case 'embeddings': this.durable.embeddings = { ...this.durable.embeddings }; break;
      case 'tasks': this.volatile.tasks = { ...this.volatile.tasks }; break;
      case 'requests': this.volatile.requests = { ...this.volatile.requests }; break;
      case 'timers': this.volatile.timers = { ...this.volatile.timers }; break;
    }
  }
}

const bucketOf = (model: string, chunkHash: string): string => model + '|' + chunkHash.charAt(0);
