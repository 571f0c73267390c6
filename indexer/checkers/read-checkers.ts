/** Checkers on what one read returns: regression, torn read, mixed models, deleted content served. */
import type { Checker } from './checker.js';
import { violation } from './checker.js';

export function indexRegression(): Checker {
  const servedMax = new Map<string, number>();
  return {
    invariant: 'index_regression', checked: 0, violated: 0,
    onRead(truth, uri, result) {
      if (!result.served || result.rows.length === 0) return null;
      this.checked++;
      const sequence = result.rows[0]!.sequence;
      const floor = servedMax.get(uri) ?? 0;
      if (sequence > floor) servedMax.set(uri, sequence);
      if (sequence >= floor) return null;
      this.violated++;
      return violation(this.invariant, truth, uri, `served version ${sequence} after version ${floor} had been served`);
    },
  };
}

export function tornRead(): Checker {
  return {
    invariant: 'torn_read', checked: 0, violated: 0,
    onRead(truth, uri, result) {
      if (!result.served) return null;
      this.checked++;
      const versions = new Set(result.rows.map((row) => row.sequence));
      if (versions.size <= 1) return null;
      this.violated++;
      return violation(this.invariant, truth, uri, `one read returned versions ${[...versions].join(', ')}`);
    },
  };
}

export function mixedModelRead(): Checker {
  return {
    invariant: 'mixed_model_read', checked: 0, violated: 0,
    onRead(truth, uri, result) {
      if (!result.served) return null;
      this.checked++;
      const models = new Set(result.rows.map((row) => row.model));
      if (models.size === 0 || (models.size === 1 && models.has(result.model))) return null;
      this.violated++;
      return violation(this.invariant, truth, uri, `a query embedded with ${result.model} got rows of ${[...models].join(', ')}`);
    },
  };
}

export function deletedServed(): Checker {
  return {
    invariant: 'deleted_served', checked: 0, violated: 0,
    onRead(truth, uri, result) {
      const deletion = truth.deliveredDeletion(uri);
      if (deletion === 0 || !result.served) return null;
      this.checked++;
      const stale = result.rows.find((row) => row.sequence < deletion);
      if (stale === undefined) return null;
      this.violated++;
      return violation(this.invariant, truth, uri, `served version ${stale.sequence} after the delete or invalidation ${deletion} was delivered`);
    },
  };
}
