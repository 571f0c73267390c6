/**
 * The reference indexer: one pure reducer, `step(state, input) -> { state, effects }`, the same contract
 * as the client core. No I/O, no clock, no randomness: time arrives as `nowMs`, timers are data (a
 * TimerFired whose time is not the armed one is stale and ignored), and the runtime or the simulator
 * carries out the effects. `recover` is what survives a crash: the durable state only.
 */
import { Draft } from './draft.js';
import { debounceMs, onChange } from './metadata-loop.js';
import { modelsInUse, onRollback, onUpgrade } from './models.js';
import { onHashPass, onReconcileTimer } from './reconcile.js';
import { onEmbedFailed, onEmbedResponded, startNextTask } from './semantic-loop.js';
import { onStoreAcked, onStoreRetry } from './store-writes.js';
import type { DurableState, IndexerConfig, IndexerEffect, IndexerInput, IndexerState, NaiveFlags, TimerKind, VolatileState } from './types.js';

export interface StepResult {
  state: IndexerState;
  effects: IndexerEffect[];
}

export const referenceFlags: NaiveFlags = {
  noVersionGuard: false, noOutbox: false, storeFirstNoVerify: false, deleteThenInsert: false, refreshOnAnyChange: false,
  compareWithPrevious: false, literalBand: false, embedBlocksMetadata: false, noTombstone: false, inPlaceModelSwap: false,
  sampledReconciliation: false,
};

export function defaultConfig(overrides: Partial<IndexerConfig> = {}): IndexerConfig {
  return {
    debounceMsByType: { document: 5_000, status: 2_000 },
    debounceMsDefault: 5_000,
    thresholdByModel: { 'fake-a': 0.8, 'fake-b': 0.92 },
    reconcilePeriodMs: 30_000,
    embedRetryMsBase: 250,
    embedRetryMsMax: 4_000,
    storeRetryMs: 1_500,
    breakerFailuresMax: 3,
    breakerOpenMs: 3_000,
    initialModel: 'fake-a',
    naive: referenceFlags,
    ...overrides,
  };
}

export function initialState(config: IndexerConfig): IndexerState {
  const durable: DurableState = {
    meta: {}, outbox: {}, embeddings: {}, models: { active: config.initialModel, target: null, previous: null },
    nextWriteId: 1, nextPassId: 1, passesDone: 0, lastPassAtMs: 0,
  };
  return { config, durable, volatile: freshVolatile() };
}

function freshVolatile(): VolatileState {
  return { tasks: {}, requests: {}, timers: {}, breakerFailures: 0, breakerOpenUntilMs: 0, nextRequestId: 1 };
}

/** After a crash: the durable state and nothing else (feed it `Started` to resume). */
export function recover(state: IndexerState): IndexerState {
  return { config: state.config, durable: state.durable, volatile: freshVolatile() };
}

export function step(state: IndexerState, input: IndexerInput): StepResult {
  const d = new Draft(state, input.nowMs);
  switch (input.type) {
    case 'ChangeArrived': onChange(d, input.entry); break;
    case 'TimerFired': onTimer(d, input.kind, input.key); break;
    case 'EmbedResponded': onEmbedResponded(d, input); break;
    case 'EmbedFailed': onEmbedFailed(d, input); break;
    case 'StoreAcked': onStoreAcked(d, input.writeId); break;
    case 'HashPassObserved': onHashPass(d, input); break;
    case 'ModelUpgradeRequested': onUpgrade(d, input.model, () => scheduleAll(d)); break;
    case 'ModelRollbackRequested': onRollback(d, () => scheduleAll(d)); break;
    case 'Started': onStarted(d); break;
  }
  return { state: d.finish(), effects: d.effects };
}

function onTimer(d: Draft, kind: TimerKind, key: string): void {
  const armed = d.timerAt(kind, key);
  if (armed === undefined || armed > d.nowMs) return;
  d.disarmTimer(kind, key);
  switch (kind) {
    case 'debounce':
    case 'embed-retry': return startNextTask(d, key);
    case 'store-retry': return onStoreRetry(d, key);
    case 'reconcile': return onReconcileTimer(d);
  }
}

/** Start or restart: resend the outbox, re-arm work left pending, schedule reconciliation. */
function onStarted(d: Draft): void {
  if (!d.config.naive.noOutbox && !d.config.naive.storeFirstNoVerify) {
    for (const writeId in d.d.outbox) {
      d.armTimer('store-retry', writeId, d.nowMs + d.config.storeRetryMs);
      d.emit({ type: 'VectorWriteRequested', write: d.d.outbox[writeId]! });
    }
  }
  scheduleAll(d);
  const dueMs = d.d.lastPassAtMs + d.config.reconcilePeriodMs;
  d.armTimer('reconcile', 'pass', dueMs > d.nowMs ? dueMs : d.nowMs);
}

function scheduleAll(d: Draft): void {
  const models = modelsInUse(d);
  for (const uri in d.d.meta) {
    const row = d.d.meta[uri]!;
    if (row.deleted || d.timerAt('debounce', uri) !== undefined) continue;
    if (row.status === 'synced' && models.every((model) => row.indexed[model]?.checkedHash === row.hash)) continue;
    d.armTimer('debounce', uri, d.nowMs + (row.status === 'synced' ? 0 : debounceMs(d, row.contentType) >> 2));
  }
}
