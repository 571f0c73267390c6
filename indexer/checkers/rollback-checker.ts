/**
 * Rollback loses nothing (issue 13, model migration): when reads switch back after a rollback request,
 * the model they switch to must publish, for every resource the retriever was served before, a version no
 * older than the one served — the old model's vectors were kept beside the new ones and kept up to date,
 * so a rollback is a switch of reads, never a step back or a re-index. Judged on the indexer's published
 * manifest at the switch, against what reads actually returned before it (the ground truth of serving).
 * Resources deleted or revoked at the source since, delivered or not, are not held to it: what was served is
 * obsolete, and a re-created resource is judged by freshness, not by the rollback. (Whether the store then holds those rows whole is
 * the read path's business: a blind-upsert store can overwrite them with any model active, which
 * `read_refused_live_rate` measures.)
 */
import type { Checker } from './checker.js';
import { violation } from './checker.js';

export function rollbackLost(): Checker {
  const lastServed = new Map<string, number>();
  let rollbackAsked = false;
  return {
    invariant: 'rollback_lost', checked: 0, violated: 0,
    onStep(truth, input, effects) {
      if (input.type === 'ModelRollbackRequested') rollbackAsked = true;
      // The state seen here is the one before the step: versions this step publishes count as published.
      const publishedNow = new Map<string, number>();
      for (const effect of effects) {
        if (effect.type === 'IndexPublished') publishedNow.set(effect.uri + '|' + effect.model, effect.sequence);
        if (effect.type === 'MigrationAbandoned') rollbackAsked = false;
        if (effect.type !== 'ReadsSwitched' || !rollbackAsked) continue;
        rollbackAsked = false;
        for (const [uri, served] of lastServed) {
          if (truth.truth(uri)?.deleted === true || truth.sourceDeletion(uri) > served) continue;
          this.checked++;
          const sequence = publishedNow.get(uri + '|' + effect.model) ?? truth.state.durable.meta[uri]?.indexed[effect.model]?.sequence;
          if (sequence !== undefined && sequence >= served) continue;
          this.violated++;
          const has = sequence === undefined ? 'publishes nothing' : `publishes only version ${sequence}`;
          return violation(this.invariant, truth, uri, `version ${served} was served before the rollback, but ${effect.model}, which reads switch back to, ${has}`);
        }
      }
      return null;
    },
    onRead(_truth, uri, result) {
      if (result.served && result.rows.length > 0) lastServed.set(uri, result.rows[0]!.sequence);
      return null;
    },
  };
}
