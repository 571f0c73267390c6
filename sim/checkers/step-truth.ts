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
  /** The answer broke the schema this way (malformed-read-response), or null. */
  malformedRead: string | null;
}
