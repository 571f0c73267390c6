/** The static configuration of a client and its defaults. */

/** Static configuration of a client (plain data; every default resolved). */
export interface ClientConfig {
  /**
   * Trailing debounce that coalesces `updated` pulses (duplicates arrive spread out) before the read is
   * issued: each pulse extends the window by debounceMs, never beyond debounceMsMax after the first.
   */
  debounceMs: number;
  debounceMsMax: number;
  /**
   * A read in flight longer than this while newer updates are pending is hedged: one more read is issued
   * and the ordinal fence keeps whichever answer is newest (read A slower than read B).
   */
  readHedgeMs: number;
  /** Base period of the per-subscription reconciliation read (lost notifications are expected). */
  reconcileIntervalMs: number;
  /** Jitter added to each reconciliation period: `jitter % (reconcileJitterMsMax + 1)`. */
  reconcileJitterMsMax: number;
  /** How long an unsubscribe may wait for its ACK before the subscription is UNSUBSCRIBE_UNKNOWN. */
  unsubscribeTimeoutMs: number;
  /** How often an UNSUBSCRIBE_UNKNOWN subscription retries its unsubscribe in the same session. */
  unsubscribeRetryMs: number;
  /** Quick unsubscribe retries (every unsubscribeTimeoutMs); later ones wait one reconciliation period each. */
  unsubscribeRetryMax: number;
  /** How long to wait before retrying a failed subscribe in the same session. */
  subscribeRetryMs: number;
  /** Poll period when the server lacks the `subscribe` capability (plus jitter, like reconciliation). */
  pollIntervalMs: number;
  pollJitterMsMax: number;
  /** Responses whose content exceeds this many characters are rejected. */
  contentCharsMax: number;
  /** Cached content is served only within this authorization lease; it is revalidated by a read. */
  authorizationLeaseMs: number;
  /** Derived index entries (chunks) written per accepted version. */
  derivedEntriesPerVersion: number;
  /** Discovery: pages per scan before it is abandoned, and reconciliation rounds before backing off. */
  scanPagesMax: number;
  reconcileRoundsMax: number;
  /** A published catalog is reviewed (re-scanned) after this long; also its staleness bound. */
  catalogReviewMs: number;
  /** After list_changed outside a scan, wait this long before re-scanning (coalesces bursts). */
  listChangedDebounceMs: number;
  /** 2026-07-28: how long a listen may wait for its ack before it is cancelled and retried (default in core/era.ts). */
  listenAckTimeoutMs?: number;
  /** 2026-07-28: a read unanswered this long is abandoned and re-issued with a new id (default in core/era.ts). */
  readReissueMs?: number;
}

export const defaultClientConfig: ClientConfig = {
  debounceMs: 300,
  debounceMsMax: 1_500,
  readHedgeMs: 1_000,
  reconcileIntervalMs: 20_000,
  reconcileJitterMsMax: 10_000,
  unsubscribeTimeoutMs: 5_000,
  unsubscribeRetryMs: 5_000,
  unsubscribeRetryMax: 3,
  subscribeRetryMs: 2_000,
  pollIntervalMs: 5_000,
  pollJitterMsMax: 2_000,
  contentCharsMax: 1_048_576,
  authorizationLeaseMs: 20_000,
  derivedEntriesPerVersion: 2,
  scanPagesMax: 256,
  reconcileRoundsMax: 4,
  catalogReviewMs: 30_000,
  listChangedDebounceMs: 500,
};
