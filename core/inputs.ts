/**
 * The inputs of a client (SPEC §4): past-tense facts delivered to it, a discriminated union on `type`,
 * plain JSON data. Every input carries `nowMs` (virtual or wall time, chosen by the caller) and `jitter`
 * (a uint32 the caller drew; the core never draws randomness itself).
 */
import type { TimerId } from './vocabulary.js';
import type { ProtocolEra, ResponseOutcome, ServerCapabilities } from './wire.js';

export type WorkloadCommand =
  | {
      type: 'SubscribeCommanded';
      nowMs: number;
      jitter: number;
      uri: string;
      /** The authorization principal whose credentials read this resource (default 'default'). */
      subject?: string;
    }
  | { type: 'UnsubscribeCommanded'; nowMs: number; jitter: number; uri: string }
  | { type: 'DiscoverCommanded'; nowMs: number; jitter: number }
  | { type: 'ServeCommanded'; nowMs: number; jitter: number; uri: string; subject: string }
  | { type: 'CompletenessTaskCommanded'; nowMs: number; jitter: number; task: string };

export type ClientInput =
  | WorkloadCommand
  | {
      type: 'Connected';
      nowMs: number;
      jitter: number;
      /** 2026-07-28 has no sessions: the generation then names the connection (the stream) instead. */
      sessionGeneration: number;
      capabilities: ServerCapabilities;
      /** The negotiated era (absent: 2025-11-25). */
      era?: ProtocolEra;
    }
  | { type: 'Disconnected'; nowMs: number; jitter: number; sessionGeneration: number }
  | {
      type: 'ResponseArrived';
      nowMs: number;
      jitter: number;
      /** The session whose stream carried the response. */
      sessionGeneration: number;
      requestId: unknown;
      outcome: ResponseOutcome;
    }
  | {
      type: 'NotificationArrived';
      nowMs: number;
      jitter: number;
      /** The session whose stream carried the notification. */
      sessionGeneration: number;
      method: unknown;
      params: unknown;
    }
  | { type: 'TimerFired'; nowMs: number; jitter: number; timer: TimerId; deadlineMs: number }
  | {
      type: 'AuthorizationChanged';
      nowMs: number;
      jitter: number;
      subject: string;
      uri: string;
      allowed: boolean;
    };

export type ClientInputType = ClientInput['type'];
