/** fencesim: the public API. */
export * from './core/types.js';
export { step, referenceClient, durableLedger, recoverFromLedger } from './core/reducer.js';
export { initialState, type CoreState, type Ledger, type Volatile } from './core/state.js';
export { transitionTable, transition, subscriptionStates, transitionEvents, edgeName, type TransitionEdge } from './core/transitions.js';
export { acceptResourceVersionOperation, beginUnsubscribeOperation } from './core/operations.js';
export { judgeReadResponse, isOpen, isLive, type ResponseVerdict } from './core/fence.js';
export { canonicalizeUri, sameResource } from './core/uri.js';
export { contentDigest } from './core/digest.js';
export { runInterleaving, type InterleavingResult, type InterleavingOptions } from './sim/world.js';
export { runRange, verdictOf, coverageOf, GateAccumulator, type RunSpec, type Failure } from './sim/gate.js';
export { safetyInvariants, invariantExplanations, type InvariantName } from './sim/oracle.js';
export { faultNames, faultDescriptions, type FaultName, type FaultPlan } from './sim/faults.js';
export { scenarios, findScenario } from './scenarios/catalog.js';
export type { Scenario } from './scenarios/scenario.js';
export { clients, findClient } from './scenarios/clients.js';
export { naiveClient, type NaiveFlags } from './scenarios/naive.js';
export { gateTest, assertSafe, type GateTestOptions, type GateTestChunk, type TestRegistrar } from './cli/vitest-gate.js';
