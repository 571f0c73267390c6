/** The scenario contract lives with the simulator that runs it (sim/scenario.ts); re-exported for the catalogue. */
export type { Scenario } from '../sim/scenario.js';
