/**
 * The truth stream: every fact about the world the checkers judge a client against (besides the step
 * truth of each client step, step-truth.ts) is one of these events, observed through the port
 * (`WorldHost.observe`) and dispatched by the oracle to its checkers. Resources and subjects are indices
 * (into the plan's resources and `subjects`); times are virtual ms.
 */
import type { ListProof } from '../checkers/catalog.js';
import type { ListHintTruth } from '../checkers/era2026-catalog-hints.js';
import type { ListAnswerTruth } from '../checkers/scan-record.js';

export type TruthEvent =
  /** The server produced this content text for the resource at this version (content dating). */
  | { kind: 'content'; text: string; resource: number; version: number }
  /** The truth changed (edit, delete or re-create); `exists` after the change. */
  | { kind: 'changed'; resource: number; version: number; timeMs: number; exists: boolean }
  /** The application subscribed / unsubscribed the resource (convergence and close fences are about these). */
  | { kind: 'subscribed'; resource: number; timeMs: number }
  | { kind: 'unsubscribed'; resource: number; timeMs: number }
  /**
   * A read's answer reached the client on the current session (not a permission denial, not a copy with a broken
   * id): `failed` when it carries nothing the client can take (an error in place of content, or an answer broken by
   * construction), not when it is content or a not-found. `cause`: the root cause of the step that sent the read.
   */
  | { kind: 'read-answered'; resource: number; cause: number; requestSentAtMs: number; failed: boolean; timeMs: number }
  /** 2025-11-25: a subscribe answer that acknowledges (a result that is an object) reached the client on the current session. */
  | { kind: 'subscribe-acked'; resource: number; requestSentAtMs: number; timeMs: number }
  /** An update notification reached the client, on the current session or an ended one. */
  | { kind: 'notified'; resource: number; version: number; current: boolean }
  /** A subject lost access; the client learned of it (authorization feed or a denied read). */
  | { kind: 'revoked'; resource: number; subject: number; timeMs: number }
  | { kind: 'learned'; resource: number; subject: number; timeMs: number }
  /** A list page reached the client on the current session, with this nextCursor as served (undefined: none). */
  | { kind: 'list-page'; nextCursor: unknown }
  /** The answer to a resources/list request reached the client on the current session (an error too): what it really was. */
  | { kind: 'list-answer'; answer: ListAnswerTruth }
  /** A list pass the client received in full, and what the server can prove about it. */
  | { kind: 'pass-completed'; pass: number; proof: ListProof; startMs: number; served: Int32Array; timeMs: number; hint?: ListHintTruth | null }
  /** The application asked the client to discover (DiscoverCommanded). */
  | { kind: 'discovery-asked'; timeMs: number }
  /** The application commanded a completeness task (CompletenessTaskCommanded); the client's step follows. */
  | { kind: 'task-asked'; timeMs: number }
  /** A list_changed notification reached the client on the current session. */
  | { kind: 'list-changed'; timeMs: number }
  /** The server's current session started or stopped holding a subscription of the resource (server state, not the client's claim). */
  | { kind: 'server-held'; resource: number; held: boolean; timeMs: number }
  /** The current session ended (disconnect or server restart; a crash is 'crashed'): the client reconnects as a new one. */
  | { kind: 'session-ended'; timeMs: number }
  /** The client crashed and restarted. */
  | { kind: 'crashed'; timeMs: number }
  /** 2026-07-28: connection `generation` speaks that era; an ack holding `resource` reached the client; a listen ended. */
  | { kind: 'era2026'; generation: number }
  | { kind: 'listen-acked'; generation: number; listenId: number; resource: number; requested: boolean }
  | { kind: 'listen-ended'; listenId: number }
  /** 2026-07-28: a tagged updated reached the client (current connection); the read result about to be stepped carried this hint. */
  | { kind: 'listen-updated'; generation: number; listenId: number; resource: number; version: number }
  | { kind: 'cache-hint'; requestSentAtMs: number; ttlMs: number; scope: 'public' | 'private'; subject: string }
  /** The application is about to ask the client to serve `resource` to `subject` (own: the subject it reads it as). */
  | { kind: 'serve'; resource: number; subject: number; own: boolean; connected: boolean; session: number; timeMs: number }
  /** The quiet, healed phase began: no more faults, mutations or workload churn (convergence is judged). */
  | { kind: 'healed'; timeMs: number }
  /** The server made `spelling` as an equivalent spelling of the resource (actors/spelling.ts). */
  | { kind: 'spelled'; spelling: string; resource: number };
