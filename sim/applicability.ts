/**
 * Which parts of a scenario apply to a client, from the features it claims. Faults of an unclaimed feature
 * are switched off in the plan and dropped from the scenario's "sometimes" list (they are not applicable,
 * not failures); a scenario whose defining fault (the first of its "sometimes") is unclaimed does not apply
 * at all. A claimed feature whose fault never fired still fails the gate.
 */
import type { FaultName } from './faults.js';
import type { Scenario } from './scenario.js';

/** Features that decide applicability (the rest of a client's claims do not switch faults off). */
export interface ClaimedFeatures {
  catalogs: boolean;
  crashRecovery: boolean;
}

const faultsOfFeature: Record<keyof ClaimedFeatures, readonly FaultName[]> = {
  catalogs: ['cursor-cycle', 'cursor-invalid', 'forged-snapshot-id', 'list-mutation-during-scan', 'no-list-changed-capability'],
  crashRecovery: ['client-crash'],
};

export interface Applicability {
  /** The scenario as it applies to the client (the same object when everything applies). */
  scenario: Scenario;
  /** Faults switched off, each with the feature it needs. */
  notApplicable: { fault: FaultName; feature: keyof ClaimedFeatures }[];
  /** Set when the whole scenario does not apply: why. */
  scenarioNotApplicable: string | null;
}

export function applicabilityOf(scenario: Scenario, features: ClaimedFeatures): Applicability {
  const off = new Map<FaultName, keyof ClaimedFeatures>();
  for (const feature of Object.keys(faultsOfFeature) as (keyof ClaimedFeatures)[]) {
    if (!features[feature]) for (const fault of faultsOfFeature[feature]) off.set(fault, feature);
  }
  const notApplicable = scenario.sometimes.filter((fault) => off.has(fault)).map((fault) => ({ fault, feature: off.get(fault)! }));
  const defining = scenario.sometimes[0];
  const scenarioNotApplicable =
    defining !== undefined && off.has(defining)
      ? `scenario ${scenario.name} tests fault ${defining}, which needs the feature ${off.get(defining)} that the client does not claim`
      : null;
  if (notApplicable.length === 0) return { scenario, notApplicable, scenarioNotApplicable };
  const applicable: Scenario = {
    ...scenario,
    sometimes: scenario.sometimes.filter((fault) => !off.has(fault)),
    plan: (chooser) => {
      const plan = scenario.plan(chooser);
      const faults = { ...plan.faults };
      for (const fault of off.keys()) delete faults[fault];
      return { ...plan, faults };
    },
  };
  return { scenario: applicable, notApplicable, scenarioNotApplicable };
}
