/**
 * One indexer interleaving's plan, drawn first through the chooser (0 = simplest = fault off): which
 * fault families are on (swarm testing: each family independently), the vector-store profile, the
 * outage window and the workload's timeline of edits with their hidden labels.
 */
import type { Chooser } from './kernel-imports.js';
import { applyEdit, generateDocument, type EditLabel, type Pick } from './edits.js';
import type { DocumentModel } from './text.js';

export const indexerFaults = [
  'outbox-duplicate', 'outbox-reorder', 'outbox-delay', 'outbox-drop',
  'indexer-crash', 'crash-before-flush', 'crash-after-apply-before-ack',
  'embed-timeout', 'embed-rate-limit', 'embed-outage', 'embed-partial', 'embed-slow',
  'store-partial-write', 'store-lost-ack', 'store-delayed-write', 'store-restart', 'store-data-loss',
  'model-upgrade', 'model-upgrade-duplicate', 'model-rollback',
  'edit-burst', 'cosmetic-storm', 'creeping-drift', 'subtle-edit', 'delete-recreate', 'revocation',
] as const;
export type IndexerFault = (typeof indexerFaults)[number];

export const storeProfiles = ['conditional-upsert', 'blind-upsert', 'expiring-tombstones', 'transactional'] as const;
export type StoreProfile = (typeof storeProfiles)[number];

export const faultPhaseMs = 90_000;
export const healPhaseMs = 75_000;
export const resourceCount = 3;
export const contentTypes = ['document', 'status', 'document'];

export interface WorkloadChange {
  atMs: number;
  uri: string;
  kind: 'upsert' | 'delete' | 'invalidate';
  label: EditLabel | 'create';
  /** The workload fault this change belongs to (its sometimes-counter). */
  fault: IndexerFault | null;
}

export interface IndexerPlan {
  faults: Record<IndexerFault, boolean>;
  storeProfile: StoreProfile;
  outageStartMs: number;
  outageEndMs: number;
  upgradeAtMs: number;
  changes: WorkloadChange[];
}

export const uriOf = (index: number): string => `mcp://docs/r${index}`;

export function drawPlan(chooser: Chooser): IndexerPlan {
  const faults = {} as Record<IndexerFault, boolean>;
  for (const fault of indexerFaults) faults[fault] = chooser.draw('faults', `plan.${fault}`, 2) === 1;
  const storeProfile = storeProfiles[chooser.draw('faults', 'plan.store-profile', storeProfiles.length)]!;
  const outageStartMs = faults['embed-outage'] ? 5_000 + chooser.draw('faults', 'plan.outage-start', 60) * 1_000 : 0;
  const outageEndMs = faults['embed-outage'] ? outageStartMs + 3_000 + chooser.draw('faults', 'plan.outage-length', 15) * 1_000 : 0;
  const upgradeAtMs = 10_000 + chooser.draw('faults', 'plan.upgrade-at', 60) * 1_000;
  return { faults, storeProfile, outageStartMs, outageEndMs, upgradeAtMs, changes: drawChanges(chooser, faults) };
}

function drawChanges(chooser: Chooser, faults: Record<IndexerFault, boolean>): WorkloadChange[] {
  const changes: WorkloadChange[] = [];
  const labels: EditLabel[] = ['cosmetic', 'reformat', 'local', 'global'];
  if (faults['subtle-edit']) labels.push('subtle');
  if (faults['creeping-drift']) labels.push('creeping', 'creeping');
  for (let index = 0; index < resourceCount; index++) {
    const uri = uriOf(index);
    changes.push({ atMs: 100 * index, uri, kind: 'upsert', label: 'create', fault: null });
    const edits = 1 + chooser.draw('workload', 'edits', 7);
    for (let edit = 0; edit < edits; edit++) {
      const atMs = 1_000 + chooser.draw('workload', 'edit.at', 85) * 1_000;
      const label = labels[chooser.draw('workload', 'edit.label', labels.length)]!;
      changes.push({ atMs, uri, kind: 'upsert', label, fault: label === 'subtle' ? 'subtle-edit' : label === 'creeping' ? 'creeping-drift' : null });
    }
  }
  const pickUri = (label: string): string => uriOf(chooser.draw('workload', label, resourceCount));
  const series = (label: EditLabel, count: number, spacingMs: number, fault: IndexerFault): void => {
    const uri = pickUri(`${label}.uri`);
    const startMs = 2_000 + chooser.draw('workload', `${label}.at`, 70) * 1_000;
    for (let index = 0; index < count; index++) changes.push({ atMs: startMs + index * spacingMs, uri, kind: 'upsert', label, fault });
  };
  if (faults['edit-burst']) series('local', 5, 300, 'edit-burst');
  if (faults['cosmetic-storm']) series('cosmetic', 8, 400, 'cosmetic-storm');
  if (faults['creeping-drift']) series('creeping', 4, 7_000, 'creeping-drift');
  if (faults['subtle-edit']) series('subtle', 1, 0, 'subtle-edit');
  for (const kind of ['delete', 'invalidate'] as const) {
    if (!faults[kind === 'delete' ? 'delete-recreate' : 'revocation']) continue;
    const uri = pickUri(`${kind}.uri`);
    const atMs = 5_000 + chooser.draw('workload', `${kind}.at`, 60) * 1_000;
    const fault = kind === 'delete' ? 'delete-recreate' : 'revocation';
    changes.push({ atMs, uri, kind, label: 'create', fault });
    if (chooser.draw('workload', `${kind}.recreate`, 2) === 0) continue;
    changes.push({ atMs: atMs + 1_000 + chooser.draw('workload', `${kind}.recreate-at`, 10) * 1_000, uri, kind: 'upsert', label: 'create', fault: null });
  }
  return changes.sort((a, b) => a.atMs - b.atMs);
}

/** A document model for a change (the ground truth only the oracle reads). */
export function nextModel(chooser: Chooser, change: WorkloadChange, previous: DocumentModel | null): DocumentModel {
  const pick: Pick = (label, n) => chooser.draw('workload', label, n);
  if (change.label === 'create' || previous === null) return generateDocument(pick, 3, 5);
  return applyEdit(previous, change.label, pick);
}
