/** What the world knows about the input of the step being judged (filled by kernel/step-truth.ts). */
export interface StepTruth {
  timeMs: number;
  cause: number;
  currentSession: number;
  /** Response steps: the request's session and send time, and what the server really answered. */
  requestSession: number;
  requestSentAtMs: number;
  /** Resource index the response's content really belongs to (-1 when none). */
  servedResource: number;
  servedVersion: number;
  servedExists: boolean;
  /** malformed-read-response made the answer, of this kind (sim/actors/malformed-reads.ts MalformedReadKind), or null. */
  malformedRead: string | null;
}
