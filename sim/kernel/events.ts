/**
 * What travels through an interleaving's queue: event kinds, and the messages between client and server
 * (with the ground truth the oracle needs riding along, never shown to the client).
 */
import type { ResponseOutcome } from '../../core/types.js';
import type { ListPageTruth } from '../actors/listing.js';

/** Event kinds of the queue. */
export const Kind = {
  ClientMessage: 1,
  ServerRequest: 2,
  Timer: 3,
  Mutation: 4,
  Command: 5,
  FaultTick: 6,
  Reconnect: 7,
  Heal: 8,
  CloseTick: 9,
  Discover: 10,
  Serve: 11,
  Task: 12,
  AuthorizationFeed: 13,
  ListMutation: 14,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

export interface SimEvent {
  timeMs: number;
  sequence: number;
  kind: Kind;
  cause: number;
  /** Session generation (messages, requests) or client epoch (timers). */
  session: number;
  /** Kind-specific integer: resource index, request id, deadline, ... */
  a: number;
  payload: unknown;
}

/** ResponseMessage.malformed of a copy of a read's answer whose id is not a positive integer (malformed-response-id). */
export const responseIdKind = 'response id';
/** malformed-ack: a subscribe or unsubscribe answer whose result is not an object (ResponseMessage.malformed). */
export const ackNotObjectKind = 'ack result not an object';

export interface ResponseMessage {
  kind: 'response';
  requestId: number;
  outcome: ResponseOutcome;
  requestSentAtMs: number;
  /** The session the request was sent on (ground truth, not the client's claim). */
  requestSession: number;
  resource: number;
  version: number;
  exists: boolean;
  /** Delivered even though its session died (old-session or crash stranding). */
  survivesSessionEnd: boolean;
  /** Permission denied to this subject index (-1: not denied). */
  deniedSubject: number;
  /** It answers a resources/read (the oracle's answer_unrecorded judges what became of it). */
  read: boolean;
  /** The method of the request it answers (unsubscribe_after_ack judges what follows an unsubscribe's ACK). */
  method: string;
  /** resources/list pages: what the page really was. */
  list: ListPageTruth | null;
  /** 2026-07-28 read results: the cache hint the server sent (sim/actors/era2026.ts). */
  hint?: CacheHintTruth;
  /** malformed-read-response: the fault made this answer, of this kind (sim/actors/malformed-reads.ts); malformed-response-id: `responseIdKind`; else null. */
  malformed: string | null;
}

/** 2026-07-28: the `ttlMs` (as the spec reads it) and `cacheScope` a read result carried, and the subject it was read as. */
export interface CacheHintTruth {
  ttlMs: number;
  scope: 'public' | 'private';
  subject: string | undefined;
}

export interface NotificationMessage {
  kind: 'notification';
  uri: string;
  resource: number;
  version: number;
  survivesSessionEnd: boolean;
  /** notifications/resources/list_changed (resource -1) rather than updated. */
  listChanged: boolean;
  /** stray-notification: its URI is not a URI at all (SPEC §11: a typed rejection), else false. */
  malformed: boolean;
  /** 2026-07-28: the listen message this is (absent: an updated / list_changed of 2025-11-25). */
  listen?: ListenMessage;
}

/** 2026-07-28: how a server-to-client notification is tagged (sim/actors/era2026.ts builds it). */
export interface ListenMessage {
  method: 'notifications/resources/updated' | 'notifications/subscriptions/acknowledged' | 'notifications/cancelled';
  /** The `_meta` subscription id (null: left out). */
  subscriptionId: number | null;
  /** Acks: the honored `resourceSubscriptions`. */
  honored: string[];
  /** Acks (ground truth, not sent): the URIs the listen asked for. */
  requested?: readonly string[];
}

export interface RequestMessage {
  requestId: number;
  method: string;
  uri: string;
  subject: string | undefined;
  cursor: string | undefined;
  sentAtMs: number;
  /** subscriptions/listen: the filter's URIs after `uri` (a module client's multi-URI listen; the reference listens per URI). */
  filterRest?: readonly string[];
}
