/**
 * The one file through which the indexer imports the simulation kernel and the core (read-only), so the
 * paths can be fixed in one place when the kernel's files move.
 */
export { Chooser, type Decision, type Stream } from '../sim/chooser.js';
export { createPrng, deriveSeed, formatSeed, parseSeed, stringHash, type Prng } from '../sim/prng.js';
export { EventQueue, type Scheduled } from '../sim/queue.js';
export { contentDigest } from '../core/digest.js';
export type { ClientEffect } from '../core/types.js';
