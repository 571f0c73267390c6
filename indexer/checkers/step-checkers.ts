/** Checkers on what a step commits: stale commits, cross-model comparisons, metadata blocked, early switches. */
import type { Checker } from './checker.js';
import { violation } from './checker.js';

export function staleCommit(): Checker {
  return {
    invariant: 'stale_commit', checked: 0, violated: 0,
    onStep(truth, _input, effects) {
      for (const effect of effects) {
        if (effect.type !== 'SemanticDecided') continue;
        this.checked++;
        const delivered = truth.deliveredUpsert(effect.uri);
        if (delivered <= effect.sequence) continue;
        this.violated++;
        return violation(this.invariant, truth, effect.uri, `decided on version ${effect.sequence} after version ${delivered} had been delivered`);
      }
      return null;
    },
  };
}

export function crossModelComparison(): Checker {
  return {
    invariant: 'cross_model_comparison', checked: 0, violated: 0,
    onStep(truth, _input, effects) {
      for (const effect of effects) {
        if (effect.type !== 'SemanticDecided' || effect.comparedModel === null) continue;
        this.checked++;
        if (effect.comparedModel === effect.model) continue;
        this.violated++;
        return violation(this.invariant, truth, effect.uri, `a ${effect.model} vector was compared with a ${effect.comparedModel} fingerprint`);
      }
      return null;
    },
  };
}

export function metadataBlocked(): Checker {
  return {
    invariant: 'metadata_blocked', checked: 0, violated: 0,
    onStep(truth, input, effects) {
      if (input.type !== 'ChangeArrived') return null;
      const { uri, sequence } = input.entry;
      if (effects.some((effect) => effect.type === 'EventIgnored')) return null;
      this.checked++;
      if (effects.some((effect) => effect.type === 'MetadataCommitted' && effect.uri === uri && effect.sequence === sequence)) return null;
      this.violated++;
      return violation(this.invariant, truth, uri, `version ${sequence} arrived but its metadata was not committed in that step (waiting on the embedding)`);
    },
  };
}

/** Reads switch to a new model only when the store holds every live resource in that model. */
export function migrationSwitch(): Checker {
  return {
    invariant: 'migration_incomplete_switch', checked: 0, violated: 0,
    onStep(truth, _input, effects) {
      for (const effect of effects) {
        if (effect.type !== 'ReadsSwitched') continue;
        for (const uri of truth.uris) {
          const resource = truth.truth(uri);
          const row = truth.state.durable.meta[uri];
          if (resource === undefined || resource.deleted || row === undefined || row.deleted) continue;
          this.checked++;
          if (truth.applied(uri, effect.model)) continue;
          this.violated++;
          return violation(this.invariant, truth, uri, `reads switched to ${effect.model} before the store ever held this resource in ${effect.model}`);
        }
      }
      return null;
    },
  };
}
