/**
 * What each client effect is checked for: per effect type, the invariants the oracle judges it against.
 * The oracle counts one check per listed invariant for every effect it judges, so a report can say how
 * much was checked as well as what was violated ("checked 2.1 M accepts, 0 violated"). Adding an invariant
 * that judges an effect is one line here.
 */
import type { ClientEffect } from '../../core/types.js';
import { invariantIndex, type InvariantName } from '../invariants.js';

const checkedBy: Partial<Record<ClientEffect['type'], readonly InvariantName[]>> = {
  VersionAccepted: ['uri_confusion', 'old_session_effect', 'accept_when_not_active', 'version_regression', 'fence_lost_after_crash'],
  TombstonePending: ['uri_confusion', 'late_tombstone', 'accept_when_not_active', 'version_regression', 'fence_lost_after_crash'],
  TombstoneConfirmed: ['late_tombstone'],
  DerivedEntryWritten: ['untraced_derived_entry'],
  ContentServed: ['served_after_revocation', 'served_outside_lease', 'served_not_found', 'served_beyond_bound'],
  PurgeDone: ['untraced_derived_entry'],
  CatalogPublished: ['unreconciled_catalog', 'catalog_ab_unsettled', 'catalog_untrue'],
  CompletenessTaskDecided: ['unproven_completeness', 'task_catalog_expired'],
  StalenessBoundPublished: ['phantom_watch'],
};

/** Outbox entries other than invalidations are checked for the close fence and their cause; deletes also as deletions. */
const outboxChecks: readonly InvariantName[] = ['post_close_outbox', 'old_session_effect'];
const outboxDeleteChecks: readonly InvariantName[] = [...outboxChecks, 'late_tombstone'];
/** A resources/read sent is checked for its cause; an unsubscribe sent renews what the server may keep. */
const readChecks: readonly InvariantName[] = ['old_session_effect'];
const unsubscribeChecks: readonly InvariantName[] = ['server_subscription_kept'];

const indices = (names: readonly InvariantName[]): Int32Array => Int32Array.from(names, (name) => invariantIndex[name]);
const none = new Int32Array(0);
const byType = new Map<string, Int32Array>(Object.entries(checkedBy).map(([type, names]) => [type, indices(names!)]));
const outboxIndices = indices(outboxChecks);
const outboxDeleteIndices = indices(outboxDeleteChecks);
const readIndices = indices(readChecks);
const unsubscribeIndices = indices(unsubscribeChecks);

/** The invariants (as indices into `allInvariants`) `effect` is checked against. */
export function checksOf(effect: ClientEffect): Int32Array {
  switch (effect.type) {
    case 'RequestSent':
      return effect.method === 'resources/read' ? readIndices : effect.method === 'resources/unsubscribe' ? unsubscribeIndices : none;
    case 'OutboxEntryWritten':
      return effect.operation === 'invalidate' ? none : effect.operation === 'delete' ? outboxDeleteIndices : outboxIndices;
    default:
      return byType.get(effect.type) ?? none;
  }
}
