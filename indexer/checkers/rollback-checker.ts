/**
 * Rollback loses nothing (issue 13, model migration): once reads switch back after a rollback request,
 * every resource the retriever was served before must still be served at its first read after the
 * switch, at a version no older than the one served before — the old model's vectors were kept beside the
 * new ones, so a rollback is a switch of reads, never a re-index. Resources deleted or revoked since, and
 * resources whose rows the store itself lost (a data-loss fault), are not held to it.
 */
import type { Checker } from './checker.js';
import { violation } from './checker.js';

export function rollbackLost(): Checker {
  const lastServed = new Map<string, number>();
  let rollbackAsked = false;
  let owed: Map<string, { sequence: number; switchedAtMs: number; model: string }> | null = null;
  return {
    invariant: 'rollback_lost', checked: 0, violated: 0,
    onStep(_truth, input, effects) {
      if (input.type === 'ModelRollbackRequested') rollbackAsked = true;
      for (const effect of effects) {
        if (effect.type === 'MigrationAbandoned') rollbackAsked = false;
        if (effect.type !== 'ReadsSwitched' || !rollbackAsked) continue;
        rollbackAsked = false;
        owed = new Map();
        for (const [uri, sequence] of lastServed) owed.set(uri, { sequence, switchedAtMs: input.nowMs, model: effect.model });
      }
      return null;
    },
    onRead(truth, uri, result) {
      const due = owed?.get(uri);
      if (result.served && result.rows.length > 0) lastServed.set(uri, result.rows[0]!.sequence);
      if (due === undefined) return null;
      owed!.delete(uri);
      const lostAtMs = truth.storeLossAtMs?.(uri);
      if (truth.deliveredDeletion(uri) >= due.sequence || (lostAtMs !== undefined && lostAtMs <= truth.nowMs)) return null;
      this.checked++;
      const servedNow = result.served && result.rows.length > 0 ? result.rows[0]!.sequence : null;
      if (servedNow !== null && servedNow >= due.sequence) return null;
      this.violated++;
      const now = servedNow === null ? `refused (${result.served ? 'no rows' : result.reason})` : `served version ${servedNow}`;
      return violation(this.invariant, truth, uri, `before the rollback to ${due.model} at ${due.switchedAtMs} ms version ${due.sequence} was served; the first read after it ${now}`);
    },
  };
}
