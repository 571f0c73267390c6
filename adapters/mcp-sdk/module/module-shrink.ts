/**
 * Shrinking a module client's failure: the failing interleaving's decisions are replayed leniently (missing
 * ones read as 0: no fault, the end of recurring activity) with chunks deleted and zeroed, keeping each
 * candidate that still violates the same invariant and is simpler (shortlex, as sim/shrink.ts). Every
 * replay but the last stops at the first instant the invariant is violated. The budget is counted in
 * replays, so the result and its counters are a function of the seed and the code; the wall-clock
 * `shouldStop` is only a safety net, and a stop by it is reported as 'wall-clock' (not reproducible).
 * The result is shown as the pure shrinker's is: cut at the violation and focused on its resource.
 */
import type { Scenario } from '../../../scenarios/scenario.js';
import type { Decision } from '../../../sim/chooser.js';
import type { InterleavingResult } from '../../../sim/kernel/interleaving.js';
import type { InvariantName } from '../../../sim/oracle.js';
import { canonicalDecisions, simpler, violates } from '../../../sim/shrink.js';
import { violationTimeline, type FocusedTimeline } from '../../../sim/timeline-focus.js';
import type { ModuleClient } from './contract.js';
import { runModuleInterleaving } from './module-world.js';

export interface ModuleShrinkLimits {
  /** The replay budget: the limit that decides. */
  attemptsMax: number;
  /** Asked before each replay: true stops the shrink (the wall-clock safety net). */
  shouldStop: () => boolean;
}

export interface ModuleShrinkResult {
  reproduced: boolean;
  decisions: Decision[];
  decisionsBefore: number;
  attempts: number;
  complete: boolean;
  stoppedBy: 'complete' | 'attempts' | 'wall-clock';
  timeline: FocusedTimeline;
}

const chunkSizes = [64, 32, 16, 8, 4, 2, 1] as const;

export async function shrinkModuleFailure(seed: number, scenario: Scenario, client: ModuleClient, invariant: InvariantName, limits: ModuleShrinkLimits): Promise<ModuleShrinkResult> {
  const replay = (decisions: readonly Decision[], trace: boolean): Promise<InterleavingResult> =>
    runModuleInterleaving(seed, scenario, client, { trace, record: true, replay: { decisions, strict: false }, stopAtInvariant: trace ? null : invariant });
  const start = await runModuleInterleaving(seed, scenario, client, { trace: false, record: true, stopAtInvariant: invariant });
  let attempts = 1;
  let best = canonicalDecisions(start.decisions!);
  const decisionsBefore = best.length;
  let stoppedBy: ModuleShrinkResult['stoppedBy'] = 'complete';
  const tried = new Set<string>();
  const attempt = async (candidate: Decision[]): Promise<boolean> => {
    const key = candidate.map((decision) => `${decision.label}=${decision.value}`).join(',');
    if (tried.has(key)) return false;
    tried.add(key);
    if (attempts >= limits.attemptsMax) stoppedBy = 'attempts';
    else if (limits.shouldStop()) stoppedBy = 'wall-clock';
    if (stoppedBy !== 'complete') return false;
    attempts++;
    const run = await replay(candidate, false);
    if (!violates(run, invariant)) return false;
    const normalized = canonicalDecisions(run.decisions!);
    if (!simpler(normalized, best)) return false;
    best = normalized;
    return true;
  };
  if (violates(start, invariant)) {
    for (let improved = true; improved && stoppedBy === 'complete'; ) {
      improved = false;
      for (const size of chunkSizes) {
        for (let end = best.length; end > 0 && stoppedBy === 'complete'; end -= size) {
          const from = Math.max(0, end - size);
          if (await attempt([...best.slice(0, from), ...best.slice(end)])) improved = true;
          else if (best.slice(from, end).some((decision) => decision.value !== 0) && (await attempt(best.map((decision, index) => (index >= from && index < end ? { ...decision, value: 0 } : decision))))) improved = true;
        }
      }
    }
  }
  const final = await replay(best, true);
  const reproduced = violates(final, invariant);
  const violation = final.oracle.violations.find((entry) => entry.invariant === invariant);
  const uris = final.plan.workload.resources.map((resource) => resource.uri);
  return {
    reproduced,
    decisions: final.decisions!,
    decisionsBefore,
    attempts,
    complete: stoppedBy === 'complete',
    stoppedBy,
    timeline: violationTimeline(final.timelineEntries ?? [], invariant, violation?.uri ?? '', uris),
  };
}
