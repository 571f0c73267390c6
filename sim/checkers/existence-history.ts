/**
 * The truth's existence of every resource and its changes in time order, kept once for the checkers that date a
 * catalog against the server model (catalog-truth.ts: the truth at a proven catalog's measured time;
 * catalog-liveness.ts: the healed listing; reappearance.ts: when a resource was re-created). Fed by the oracle from the truth stream (`onChange`).
 */
export class ExistenceHistory {
  /** Per resource: 1 while it exists in the truth (every resource exists at the start). */
  readonly exists: Uint8Array;
  /** The existence changes, in time order: the resource, and the time in ms. */
  readonly changedResources: number[] = [];
  readonly changedAtMs: number[] = [];

  constructor(count: number) {
    this.exists = new Uint8Array(count).fill(1);
  }

  /** Records the resource's existence after a change of the truth; true when that changed it (a delete or a re-creation). */
  onExistence(resource: number, exists: boolean, timeMs: number): boolean {
    const value = exists ? 1 : 0;
    if (this.exists[resource] === value) return false;
    this.exists[resource] = value;
    this.changedResources.push(resource);
    this.changedAtMs.push(timeMs);
    return true;
  }
}
