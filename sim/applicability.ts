/**
 * Which parts of a scenario apply to a client, from the features it claims. Faults of an unclaimed feature
 * are switched off in the plan and dropped from the scenario's "sometimes" list (they are not applicable,
 * not failures); a scenario whose defining fault (the first of its "sometimes") is unclaimed does not apply
 * at all. A claimed feature whose fault never fired still fails the gate.
 */
import type { ClientUnderTest } from '../core/types.js';
import type { FaultName } from './faults.js';
import { livenessInvariants, safetyInvariants } from './invariants.js';
import type { Scenario } from './scenario.js';

/** Features that decide applicability (the rest of a client's claims do not switch faults off). */
export interface ClaimedFeatures {
  catalogs: boolean;
  crashRecovery: boolean;
  /**
   * Judged on the step interface (SPEC §4: a reducer's effects on the pure transport): every reducer client, never
   * a module client. Its faults test what the core does with protocol input the SDK would not hand a module client
   * as it was sent (`stepInterfaceFaults`).
   */
  stepInterface: boolean;
}

/** Faults judged on the step interface only (ClaimedFeatures.stepInterface; cli/protocol.ts refuses them over the SDK). */
export const stepInterfaceFaults: readonly FaultName[] = ['malformed-read-response', 'malformed-input', 'disconnect-unannounced', 'no-resources-capability', 'malformed-response-id', 'malformed-ack', 'input-repeated'];

const faultsOfFeature: Record<keyof ClaimedFeatures, readonly FaultName[]> = {
  catalogs: ['cursor-cycle', 'cursor-invalid', 'forged-snapshot-id', 'list-mutation-during-scan', 'no-list-changed-capability', 'malformed-list-page', 'list-page-edge', 'list-index-lag'],
  crashRecovery: ['client-crash'],
  stepInterface: stepInterfaceFaults,
};

export interface Applicability {
  /** The scenario as it applies to the client (the same object when everything applies). */
  scenario: Scenario;
  /** Faults switched off, each with the feature it needs. */
  notApplicable: { fault: FaultName; feature: keyof ClaimedFeatures }[];
  /** Set when the whole scenario does not apply: why. */
  scenarioNotApplicable: string | null;
}

/**
 * What a switched-off fault needs, as a client author reads it: a claimable feature by its name in the module
 * contract's `features`; the step interface is no claim but the kind of client (a reducer's `step`).
 */
export function neededText(feature: keyof ClaimedFeatures): string {
  return feature === 'stepInterface' ? "a reducer client's step interface" : feature;
}

/** Why a client lacks `feature`: it does not claim it, or (the step interface) it is not a reducer client. */
function neededClause(feature: keyof ClaimedFeatures): string {
  return feature === 'stepInterface' ? `${neededText(feature)} (a module client is judged on the wire)` : `the feature ${feature} that the client does not claim`;
}

/** "fault (needs feature)" for each fault switched off, as the run spec, summary.md and report.html list them. */
export function notApplicableText(notApplicable: readonly { fault: string; feature: keyof ClaimedFeatures }[]): string[] {
  return notApplicable.map((entry) => `${entry.fault} (needs ${neededText(entry.feature)})`);
}

export function applicabilityOf(scenario: Scenario, features: ClaimedFeatures): Applicability {
  const off = new Map<FaultName, keyof ClaimedFeatures>();
  for (const feature of Object.keys(faultsOfFeature) as (keyof ClaimedFeatures)[]) {
    if (!features[feature]) for (const fault of faultsOfFeature[feature]) off.set(fault, feature);
  }
  const notApplicable = scenario.sometimes.filter((fault) => off.has(fault)).map((fault) => ({ fault, feature: off.get(fault)! }));
  const defining = scenario.sometimes[0];
  const needed = defining === undefined ? undefined : off.get(defining);
  const scenarioNotApplicable = needed === undefined ? null : `scenario ${scenario.name} tests fault ${defining}, which needs ${neededClause(needed)}`;
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

/**
 * What a user's reducer client (loaded by module path) claims: crash recovery when it has both `durable` and
 * `recover` (unless its `features.crashRecovery` is false), catalogs only when its `features.catalogs` is
 * true, as for module clients (a reducer that never lists resources gets the list faults as not applicable).
 * Registry clients are not judged by claims: every fault applies to them.
 */
export function reducerClaims(client: ClientUnderTest<any> & { features?: { catalogs?: boolean; crashRecovery?: boolean } }): ClaimedFeatures {
  const recovers = typeof client.durable === 'function' && typeof client.recover === 'function';
  return { catalogs: client.features?.catalogs === true, crashRecovery: recovers && client.features?.crashRecovery !== false, stepInterface: true };
}

/** The spec rows that name the faults switched off (empty when everything applies). */
export function notApplicableRows(applicability: Applicability): string[][] {
  const off = notApplicableText(applicability.notApplicable);
  return off.length === 0 ? [] : [['not applicable', off.join(', ')]];
}

/**
 * The invariants the black-box oracle judges for a module client (adapters/mcp-sdk/module/observer.ts: what it
 * sends and what `get` serves, against ground truth), and the rest: they need the reducer vocabulary (outbox
 * and derived entries, catalogs, a client's own claim that a URI is watched, read receipts, the requests a
 * reducer's effects name) and are never judged for a module client. Reducer clients are judged on every
 * invariant. (sim/applicability.test.ts checks this list against what module runs really judge.)
 */
export const moduleJudgedInvariants = [
  'version_regression',
  'uri_confusion',
  'accept_when_not_active',
  'old_session_effect',
  'late_tombstone',
  'served_after_revocation',
  'fence_lost_after_crash',
  'served_outside_lease',
  'served_not_found',
  'server_subscription_kept',
  'served_beyond_bound',
  'refused_fresh',
  'read_your_notification',
  'ttl_staleness',
  'monotonic_reads',
  'scope_isolation',
  'convergence_60s',
  'healed_convergence',
  'notified_unread',
] as const;

/** What report.json says about the client under test (absent for registry clients: everything applies). */
export interface ReportApplicability {
  /** 'module': judged as a black box; 'reducer': a reducer loaded by path, judged on its effects. */
  clientKind: 'module' | 'reducer';
  /** What it claims (`stepInterface` is not a claim: it follows from `clientKind`). */
  claims: Omit<ClaimedFeatures, 'stepInterface'>;
  /** Faults switched off, each with the feature it needs. */
  notApplicable: { fault: FaultName; feature: keyof ClaimedFeatures }[];
  /** Invariants judged for this client. */
  invariantsJudged: string[];
  /** Invariants not judged for this client (they need the reducer vocabulary). */
  invariantsNotJudged: string[];
}

export function reportApplicability(clientKind: 'module' | 'reducer', claims: Omit<ClaimedFeatures, 'stepInterface'>, applicability: Applicability): ReportApplicability {
  const invariants: readonly string[] = [...safetyInvariants, ...livenessInvariants];
  const judged = clientKind === 'module' ? invariants.filter((name) => (moduleJudgedInvariants as readonly string[]).includes(name)) : [...invariants];
  return {
    clientKind,
    claims: { catalogs: claims.catalogs, crashRecovery: claims.crashRecovery },
    notApplicable: applicability.notApplicable.map((entry) => ({ ...entry })),
    invariantsJudged: judged,
    invariantsNotJudged: invariants.filter((name) => !judged.includes(name)),
  };
}

/**
 * The scenario a report's run was judged on: the catalogue's, with the faults its client did not claim
 * switched off (merge and report verification rebuild the verdict with it).
 */
export function judgedScenario(scenario: Scenario, applicability: ReportApplicability | undefined): Scenario {
  if (applicability === undefined) return scenario;
  return applicabilityOf(scenario, { ...applicability.claims, stepInterface: applicability.clientKind === 'reducer' }).scenario;
}
