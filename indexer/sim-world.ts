/**
 * One seeded indexer interleaving on virtual time: the workload edits resources (ground truth with hidden
 * labels), the client's outbox entries travel a faulty channel to the indexer, the indexer's effects are
 * carried out by a faulty embedding service and a faulty vector store, the indexer crashes and restarts,
 * and a retriever reads every resource every 2 s through the read path. Every choice is a chooser draw
 * (0 = simplest), so a run replays from its decisions; checkers judge reads and commits against the truth.
 */
import { Chooser, contentDigest, EventQueue, type Decision, type Scheduled } from './kernel-imports.js';
import { checkerFactories } from './checkers/registry.js';
import type { Checker, TruthResource, Violation } from './checkers/checker.js';
import { readIndex } from './read-path.js';
import { initialState, recover, step } from './reducer.js';
import { contentTypes, drawPlan, faultPhaseMs, healPhaseMs, nextModel, resourceCount, uriOf, type IndexerFault, type IndexerPlan, type StoreProfile } from './sim-plan.js';
import { emptyMetrics, type IndexerMetrics } from './sim-metrics.js';
import { SimStore } from './sim-store.js';
import { renderDocument, type DocumentModel } from './text.js';
import { carryOut } from './sim-effects.js';
import type { SimPort, WorldEventBody } from './sim-port.js';
import { finishMetrics, judgeDecision, probeFreshness } from './sim-judge.js';
import { scheduleRun } from './sim-schedule.js';
import { sendOutboxEntry } from './sim-outbox.js';
import type { ChangeEntry, ChunkRow, IndexerConfig, IndexerInput, IndexerState, VectorWrite } from './types.js';

export type WorldEvent = Scheduled & WorldEventBody;

export interface WorldOptions {
  trace: boolean;
  record: boolean;
  /** Stop at the first violation of this invariant (shrinking). */
  stopAt: string | null;
  /** Use this store profile whatever the plan drew (the PGlite conformance test). */
  storeProfile?: StoreProfile;
  /** Keep every store application, in order, with the rows of its URI afterwards. */
  recordStore?: boolean;
}

/** A write the store applied (its first `rowsMax` rows), or a data loss (`write` null) of `uri`. */
export interface StoreApplication {
  uri: string;
  write: VectorWrite | null;
  rowsMax: number;
  rowsAfter: ChunkRow[];
}

export interface IndexerRunResult {
  seed: number;
  plan: IndexerPlan;
  violations: Violation[];
  /** The first metric events (not invariants): false updates, misses, lost events found late. */
  metricEvents: Violation[];
  counts: Record<string, { checked: number; violated: number }>;
  metrics: IndexerMetrics;
  timeline: string[] | null;
  decisions: Decision[] | null;
  events: number;
  steps: number;
  traceHash: number;
}

export { readPeriodMs } from './sim-schedule.js';
export const runEndMs = faultPhaseMs + healPhaseMs;
const eventsMax = 200_000;

export class IndexerWorld implements SimPort {
  nowMs = 0;
  readonly uris: string[] = [];
  state: IndexerState;
  readonly store: SimStore;
  readonly queue = new EventQueue<WorldEvent>();
  readonly metrics = emptyMetrics();
  readonly checkers: Checker[] = checkerFactories.map((factory) => factory());
  readonly violations: Violation[] = [];
  readonly metricEvents: Violation[] = [];
  readonly timeline: string[] | null;
  readonly plan: IndexerPlan;
  readonly truthByUri = new Map<string, TruthResource>();
  readonly versions = new Map<string, DocumentModel>();
  readonly labels = new Map<string, string>();
  readonly deletions = new Map<string, number>();
  /** Latest deletion or invalidation of each URI at the source, whether or not the outbox delivered it. */
  readonly sourceDeletions = new Map<string, number>();
  readonly upserts = new Map<string, number>();
  readonly writes: VectorWrite[] = [];
  readonly storeLog: StoreApplication[] = [];
  epoch = 0;
  storeEpoch = 0;
  down = false;
  healed = false;
  sequence = 0;
  steps = 0;
  events = 0;
  hash = 0x811c9dc5;
  stopped = false;
  /** Deliveries that arrived while the indexer was down: the client's outbox re-sends them. */
  readonly backlog: IndexerInput[] = [];
  readonly lost = new Map<string, { sequence: number; droppedAtMs: number }[]>();
  readonly deletionDeliveredAtMs = new Map<string, number>();
  readonly published = new Map<string, number>();
  readonly appliedModels = new Set<string>();
  readonly dataLossAtMs = new Map<string, number>();
  /** URIs served since their last delivered deletion, with the first version served. */
  readonly servedSince = new Map<string, number>();

  constructor(readonly chooser: Chooser, readonly config: IndexerConfig, readonly options: WorldOptions) {
    this.plan = drawPlan(chooser);
    this.store = new SimStore(options.storeProfile ?? this.plan.storeProfile);
    this.state = initialState(config);
    this.timeline = options.trace ? [] : null;
    for (let index = 0; index < resourceCount; index++) this.uris.push(uriOf(index));
  }

  get truthState(): IndexerState {
    return this.state;
  }

  truth(uri: string): TruthResource | undefined {
    return this.truthByUri.get(uri);
  }

  versionModel(uri: string, sequence: number): DocumentModel | null {
    return this.versions.get(uri + '#' + sequence) ?? null;
  }

  deliveredDeletion(uri: string): number {
    return this.deletions.get(uri) ?? 0;
  }

  sourceDeletion(uri: string): number {
    return this.sourceDeletions.get(uri) ?? 0;
  }

  contentTypeOf(uri: string): string {
    return contentTypes[this.uris.indexOf(uri)]!;
  }

  textOf(uri: string, sequence: number): string | null {
    const model = this.versionModel(uri, sequence);
    return model === null ? null : renderDocument(model);
  }

  applied(uri: string, model: string): boolean {
    return this.appliedModels.has(uri + '|' + model);
  }

  storeLossAtMs(uri: string): number | undefined {
    return this.dataLossAtMs.get(uri);
  }

  deliveredUpsert(uri: string): number {
    return this.upserts.get(uri) ?? 0;
  }

  fault(name: IndexerFault): boolean {
    return this.plan.faults[name] && !this.healed;
  }

  fired(name: string): void {
    this.metrics.faultsFired[name] = (this.metrics.faultsFired[name] ?? 0) + 1;
  }

  at(timeMs: number, event: WorldEventBody): void {
    const scheduled = event as WorldEvent;
    scheduled.timeMs = timeMs;
    scheduled.sequence = 0;
    this.queue.push(scheduled);
  }

  line(text: string): void {
    if (this.timeline !== null) this.timeline.push(`${String(this.nowMs).padStart(6)} ms  ${text}`);
  }

  run(): IndexerRunResult {
    scheduleRun(this);
    while (!this.stopped && this.queue.size > 0 && this.events < eventsMax) {
      if (this.queue.peekTimeMs() > runEndMs) break;
      const event = this.queue.pop()!;
      this.nowMs = event.timeMs;
      this.events++;
      this.hash = Math.imul(this.hash ^ (event.timeMs + event.kind.length * 7919), 0x01000193) >>> 0;
      this.handle(event);
    }
    if (!this.stopped) for (const checker of this.checkers) if (checker.atEnd !== undefined) this.report(checker.atEnd(this));
    finishMetrics(this);
    return this.result();
  }

  private handle(event: WorldEvent): void {
    switch (event.kind) {
      case 'change': return this.change(event.index);
      case 'input':
        if (event.epoch !== this.epoch && event.input.type !== 'ChangeArrived') return;
        return this.deliver(event.input);
      case 'store-apply': return this.storeApply(event);
      case 'crash': return this.crash();
      case 'restart': return this.restart();
      case 'read': return this.readAll();
      case 'probe': return probeFreshness(this, event.uri, event.version, event.startMs);
      case 'store-restart': this.storeEpoch++; this.fired('store-restart'); this.line('store restarted: writes in flight lost'); return;
      case 'data-loss': return this.dataLoss();
      case 'upgrade':
        if (this.state.durable.models.target === event.model || this.state.durable.models.active === event.model) this.fired('model-upgrade-duplicate');
        return this.deliver({ type: 'ModelUpgradeRequested', nowMs: this.nowMs, model: event.model });
      case 'rollback': this.fired('model-rollback'); return this.deliver({ type: 'ModelRollbackRequested', nowMs: this.nowMs });
      case 'heal': this.healed = true; this.line('heal phase: faults stop'); return;
    }
  }

  private change(index: number): void {
    const change = this.plan.changes[index]!;
    const previous = this.truthByUri.get(change.uri);
    const sequence = ++this.sequence;
    if (change.fault !== null) this.fired(change.fault);
    let entry: ChangeEntry;
    if (change.kind === 'upsert') {
      const model = nextModel(this.chooser, change, previous === undefined || previous.deleted ? null : previous.model);
      const text = renderDocument(model);
      const digest = contentDigest(text);
      this.truthByUri.set(change.uri, { sequence, deleted: false, digest, model });
      this.versions.set(change.uri + '#' + sequence, model);
      this.labels.set(change.uri + '#' + sequence, change.label);
      entry = { uri: change.uri, sequence, operation: 'upsert', digest, contentType: contentTypes[this.uris.indexOf(change.uri)]!, text, subject: 'alice' };
      this.line(`source ${change.uri} v${sequence} ${change.label}`);
    } else {
      this.truthByUri.set(change.uri, { sequence, deleted: true, digest: '', model: null });
      this.sourceDeletions.set(change.uri, sequence);
      entry = { uri: change.uri, sequence, operation: change.kind, digest: '', contentType: '', text: null, subject: 'alice' };
      this.line(`source ${change.uri} v${sequence} ${change.kind}`);
    }
    sendOutboxEntry(this, entry);
  }

  deliver(template: IndexerInput): void {
    const input = { ...template, nowMs: this.nowMs } as IndexerInput;
    if (this.down) {
      if (input.type === 'ChangeArrived' || input.type === 'ModelUpgradeRequested' || input.type === 'ModelRollbackRequested') this.backlog.push(input);
      return;
    }
    const result = step(this.state, input);
    this.steps++;
    for (const checker of this.checkers) if (checker.onStep !== undefined) this.report(checker.onStep(this, input, result.effects));
    this.state = result.state;
    this.recordDelivery(input);
    for (const effect of result.effects) judgeDecision(this, effect);
    if (this.maybeCrashAfter(input, result.effects)) return;
    carryOut(this, input, result.effects);
  }

  private recordDelivery(input: IndexerInput): void {
    if (input.type !== 'ChangeArrived') return;
    const { uri, sequence, operation } = input.entry;
    const record = operation === 'upsert' ? this.upserts : this.deletions;
    if (sequence > (record.get(uri) ?? 0)) record.set(uri, sequence);
    if (operation !== 'upsert' && !this.deletionDeliveredAtMs.has(uri + '#' + sequence)) this.deletionDeliveredAtMs.set(uri + '#' + sequence, this.nowMs);
    this.line(`indexer <- ${operation} ${uri} v${sequence}`);
    if (operation === 'upsert' && this.truthByUri.get(uri)?.sequence === sequence) {
      const window = this.config.debounceMsByType[input.entry.contentType] ?? this.config.debounceMsDefault;
      this.at(this.nowMs + window + 10_000, { kind: 'probe', uri, version: sequence, startMs: this.nowMs });
    }
  }

  /** Crash at any step: after the step is durable; sometimes before its effects leave the process. */
  private maybeCrashAfter(input: IndexerInput, effects: readonly import('./types.js').IndexerEffect[]): boolean {
    if (!this.fault('indexer-crash') || !this.chooser.chance('faults', 'crash.after-step', 1, 60)) return false;
    const beforeFlush = this.plan.faults['crash-before-flush'] && this.chooser.chance('faults', 'crash.before-flush', 1, 2);
    if (beforeFlush && effects.some((effect) => effect.type === 'VectorWriteRequested')) this.fired('crash-before-flush');
    if (input.type === 'ChangeArrived' && this.plan.faults['crash-after-apply-before-ack']) {
      this.fired('crash-after-apply-before-ack');
      this.backlog.push(input);
    }
    if (!beforeFlush) carryOut(this, input, effects);
    this.crash();
    return true;
  }

  private crash(): void {
    if (this.down) return;
    this.fired('indexer-crash');
    this.line('indexer crashed (volatile state lost)');
    this.state = recover(this.state);
    this.epoch++;
    this.down = true;
    this.at(this.nowMs + 200 + this.chooser.draw('faults', 'crash.downtime', 18) * 100, { kind: 'restart' });
  }

  private restart(): void {
    this.down = false;
    this.line('indexer restarted');
    this.deliver({ type: 'Started', nowMs: this.nowMs });
    const backlog = this.backlog.splice(0);
    for (const input of backlog) this.at(this.nowMs + 10, { kind: 'input', epoch: -1, input });
  }

  private storeApply(event: Extract<WorldEvent, { kind: 'store-apply' }>): void {
    if (event.storeEpoch !== this.storeEpoch) return;
    const write = this.writes[event.writeIndex]!;
    this.store.apply(write, this.nowMs, event.rowsMax);
    if (this.options.recordStore === true) this.storeLog.push({ uri: write.uri, write, rowsMax: event.rowsMax, rowsAfter: this.store.rowsOf(write.uri) });
    if (event.rowsMax === write.rows.length && !write.purge) this.appliedModels.add(write.uri + '|' + write.model);
    if (write.purge) judgePurge(this, write);
    if (!event.ack) return;
    this.at(this.nowMs + 2 + this.chooser.draw('server', 'store.ack-latency', 20), { kind: 'input', epoch: event.epoch, input: { type: 'StoreAcked', nowMs: 0, writeId: write.writeId } });
  }

  private dataLoss(): void {
    const uri = this.uris[this.chooser.draw('faults', 'data-loss.uri', this.uris.length)]!;
    this.fired('store-data-loss');
    this.line(`store lost every row of ${uri}`);
    this.store.lose(uri);
    this.dataLossAtMs.set(uri, this.nowMs);
    if (this.options.recordStore === true) this.storeLog.push({ uri, write: null, rowsMax: 0, rowsAfter: [] });
  }

  private readAll(): void {
    for (const uri of this.uris) {
      const result = readIndex(this.state, uri, this.store.rowsOf(uri));
      const truth = this.truthByUri.get(uri);
      const servedBefore = this.servedSince.get(uri);
      if (truth !== undefined && !truth.deleted && servedBefore !== undefined && servedBefore > this.deliveredDeletion(uri)) {
        this.metrics.readsOfServedLive++;
        if (!result.served) this.metrics.readsRefusedLive++;
      }
      if (result.served && servedBefore === undefined) this.servedSince.set(uri, result.rows[0]?.sequence ?? 0);
      if (servedBefore !== undefined && servedBefore < this.deliveredDeletion(uri)) this.servedSince.delete(uri);
      for (const checker of this.checkers) if (checker.onRead !== undefined) this.report(checker.onRead(this, uri, result));
    }
  }

  /** A metric's bad event (a false update, a miss, a lost event found late): kept, and a shrink target. */
  metricEvent(kind: string, uri: string, detail: string): void {
    if (this.metricEvents.length < 20) this.metricEvents.push({ invariant: kind, timeMs: this.nowMs, uri, detail });
    this.line(`metric event ${kind} on ${uri}: ${detail} <==`);
    if (this.options.stopAt === kind) this.stopped = true;
  }

  report(found: Violation | null): void {
    if (found === null) return;
    this.violations.push(found);
    this.line(`VIOLATION ${found.invariant} on ${found.uri}: ${found.detail} <==`);
    if (this.options.stopAt !== null && (this.options.stopAt === '*' || this.options.stopAt === found.invariant)) this.stopped = true;
  }

  private result(): IndexerRunResult {
    const counts: Record<string, { checked: number; violated: number }> = {};
    for (const checker of this.checkers) counts[checker.invariant] = { checked: checker.checked, violated: checker.violated };
    return {
      seed: 0, plan: this.plan, violations: this.violations, metricEvents: this.metricEvents, counts, metrics: this.metrics, timeline: this.timeline,
      decisions: this.chooser.log === null ? null : this.chooser.log.slice(), events: this.events, steps: this.steps, traceHash: this.hash,
    };
  }
}

function judgePurge(world: IndexerWorld, write: import('./types.js').VectorWrite): void {
  const deliveredAt = world.deletionDeliveredAtMs.get(write.uri + '#' + write.sequence);
  if (deliveredAt === undefined) return;
  world.deletionDeliveredAtMs.delete(write.uri + '#' + write.sequence);
  world.metrics.purges++;
  const bin = Math.min(world.metrics.purgeMsHistogram.length - 1, Math.floor((world.nowMs - deliveredAt) / 1_000));
  world.metrics.purgeMsHistogram[bin]!++;
}