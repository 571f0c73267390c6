/**
 * The fault catalogue (SPEC §5) and the fault plan: one serializable value saying which faults are on and
 * how often they fire. Intensities are integer ratios (numerator / denominator), never floats.
 */

export const faultNames = [
  'drop-notification',
  'duplicate-notification',
  'reorder',
  'slow-read',
  'cursor-cycle',
  'cursor-invalid',
  'forged-snapshot-id',
  'list-mutation-during-scan',
  'drop-unsubscribe-ack',
  'late-response-after-close',
  'old-session-notification',
  'uri-spelling',
  'permission-revocation',
  'disconnect',
  'server-restart',
  'client-crash',
  'no-subscribe-capability',
  'no-list-changed-capability',
] as const;

export type FaultName = (typeof faultNames)[number];

/**
 * Capability faults are decided once per interleaving (the server does not offer the capability for the
 * whole run): a plan that lists one switches the capability off with its ratio, drawn at the start.
 */
export const capabilityFaults: readonly FaultName[] = ['no-subscribe-capability', 'no-list-changed-capability'];

export const faultDescriptions: Record<FaultName, string> = {
  'drop-notification': 'notifications (resources/updated, resources/list_changed) lost on the way to the client',
  'duplicate-notification': 'a notification delivered two or more times',
  reorder: 'server-to-client messages overtake each other (extra random delay per message)',
  'slow-read': 'a resources/read response delayed by up to seconds (read A slower than read B)',
  'cursor-cycle': 'a list nextCursor equal to a cursor already returned in the same pass',
  'cursor-invalid': 'a list page request answered with an invalid-cursor error',
  'forged-snapshot-id': 'a snapshot ID that changes across pages or was never negotiated',
  'list-mutation-during-scan': 'resources deleted and re-created between list pages',
  'drop-unsubscribe-ack': 'the resources/unsubscribe response is lost',
  'late-response-after-close': 'a read response held back until after the client began to unsubscribe',
  'old-session-notification': 'messages of a dead session delivered after the reconnect',
  'uri-spelling': 'URIs spelled differently (equivalent encodings) in notifications and responses',
  'permission-revocation': 'a subject loses access to a resource it reads; the authorization feed is delayed or lost',
  disconnect: 'the connection drops; the client reconnects as a new session',
  'server-restart': 'the server restarts and forgets every session and subscription',
  'client-crash': 'the client crashes and restarts from its durable ledger',
  'no-subscribe-capability': 'the server does not offer resources.subscribe: the client must poll',
  'no-list-changed-capability': 'the server does not offer resources.listChanged',
};

export interface Ratio {
  numerator: number;
  denominator: number;
}

/** A fault that is on fires with this per-opportunity probability. */
export type FaultPlan = Partial<Record<FaultName, Ratio>>;

export function ratio(numerator: number, denominator: number): Ratio {
  return { numerator, denominator };
}

/** Per-fault firing counts for one interleaving, in `faultNames` order. */
export type FaultCounts = Int32Array;

export function newFaultCounts(): FaultCounts {
  return new Int32Array(faultNames.length);
}

export const faultIndex: Record<FaultName, number> = Object.fromEntries(
  faultNames.map((name, index) => [name, index]),
) as Record<FaultName, number>;
