/** The records of the consistency core (SPEC §3.1), versioned and serializable. */
import type { SubscriptionState } from './vocabulary.js';
import type { ContentEncoding, ServerCapabilities } from './wire.js';

export interface ResourceSubscriptionRecord {
  schema: 'resourceSubscription.v1';
  subject: string;
  serverId: string;
  uri: string;
  sessionGeneration: number;
  capabilityReceipt: ServerCapabilities | null;
  subscriptionGeneration: number;
  startMs: number;
  endMs: number | null;
  lastIssuedOrdinal: number;
  lastAcceptedOrdinal: number;
  lastAcceptedDigest: string | null;
  closeOrdinal: number | null;
  closeEpoch: number | null;
  /** How many unsubscribe requests were sent for the current close. */
  unsubscribeAttempts: number;
  /** A reconciled catalog confirmed the resource's deletion and no content was accepted since: no catalog confirms it again. */
  deletionConfirmed: boolean;
  state: SubscriptionState;
}

export interface ResourceVersionRecord {
  schema: 'resourceVersion.v1';
  uri: string;
  encoding: ContentEncoding;
  mimeType: string;
  digest: string;
  readOrdinal: number;
  subject: string;
  serverVersion: string;
  localGeneration: number;
  acceptedAtMs: number;
}
