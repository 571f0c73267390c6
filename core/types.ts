/**
 * The client-under-test interface (SPEC §4) and the records of the consistency core (SPEC §3.1), one
 * concept per file and re-exported here, so that importers name one module:
 * - wire.ts: what MCP carries (capabilities, eras, methods, response outcomes, content encodings);
 * - inputs.ts: the inputs, past-tense facts delivered to a client;
 * - effects.ts: the effects, commands or observable facts, and `StepResult`;
 * - config.ts: `ClientConfig` and `defaultClientConfig`;
 * - client-contract.ts: `ClientUnderTest`, what the harness drives;
 * - vocabulary.ts: subscription states, transition events and timer kinds (the table: transitions.ts);
 * - resource-records.ts: the versioned subscription and version records.
 */

export * from './wire.js';
export * from './inputs.js';
export * from './effects.js';
export * from './config.js';
export * from './client-contract.js';
export * from './vocabulary.js';
export * from './resource-records.js';
