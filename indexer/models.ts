/**
 * The model registry. An upgrade is a migration: the target model's vectors are written beside the
 * active model's (every live URI re-embedded), reads switch only when every live URI is covered at its
 * current content, and the old model is kept up to date for a rollback. A duplicated upgrade command is
 * a no-op; a rollback during a migration abandons it, after a switch it switches reads back.
 * Naive in-place swap: reads switch at once and the old fingerprints are taken as the new model's.
 */
import type { Draft } from './draft.js';
import type { UriMeta } from './types.js';

/** Models the indexer keeps up to date: the active one, a migration target, the rollback model. */
export function modelsInUse(d: Draft): string[] {
  const models = d.d.models;
  const list = [models.active];
  if (models.target !== null && models.target !== models.active) list.push(models.target);
  if (models.previous !== null && !list.includes(models.previous)) list.push(models.previous);
  return list;
}

export function onUpgrade(d: Draft, model: string, scheduleAll: () => void): void {
  const models = d.d.models;
  if (model === models.active || model === models.target) return;
  if (d.config.naive.inPlaceModelSwap) {
    for (const uri in d.d.meta) {
      const row = d.metaForWrite(uri)!;
      const old = row.indexed[models.active];
      if (old !== undefined) row.indexed[model] = old;
    }
    d.setModels({ active: model, target: null, previous: null });
    d.emit({ type: 'ReadsSwitched', model, previous: models.active });
    return;
  }
  d.setModels({ active: models.active, target: model, previous: models.previous === model ? null : models.previous });
  d.emit({ type: 'MigrationStarted', model });
  scheduleAll();
}

export function onRollback(d: Draft, scheduleAll: () => void): void {
  const models = d.d.models;
  if (models.target !== null) {
    d.setModels({ active: models.active, target: null, previous: models.previous });
    d.emit({ type: 'MigrationAbandoned', model: models.target, reason: 'rollback requested' });
    return;
  }
  if (models.previous === null) return;
  // After a switch: migrate back. Reads move only once the old model covers every live URI again.
  d.setModels({ active: models.active, target: models.previous, previous: null });
  d.emit({ type: 'MigrationStarted', model: models.previous });
  scheduleAll();
  maybeSwitch(d);
}

/** Switch reads to the target once every live URI has it published at its current content. */
export function maybeSwitch(d: Draft): void {
  const models = d.d.models;
  const target = models.target;
  if (target === null) return;
  for (const uri in d.d.meta) if (!covered(d.d.meta[uri]!, target)) return;
  d.setModels({ active: target, target: null, previous: models.active });
  d.emit({ type: 'ReadsSwitched', model: target, previous: models.active });
}

export function covered(row: UriMeta, model: string): boolean {
  if (row.deleted) return true;
  const indexed = row.indexed[model];
  return indexed !== undefined && indexed.checkedHash === row.hash && !row.repair && !behindAnotherModel(row, model);
}

/** Another model publishes a newer version: refresh, so switching reads between models never goes back. */
export function behindAnotherModel(row: UriMeta, model: string): boolean {
  const own = row.indexed[model]!.sequence;
  for (const other in row.indexed) if (other !== model && row.indexed[other]!.sequence > own) return true;
  return false;
}
