/**
 * What the obligation checkers share (notification-reads.ts, era2026-renewal.ts): per resource, since when the client
 * owes something (-1: nothing), which resources the application wants, and the obligations voided with their reason
 * (the application gives the resource up, the client crashes).
 */
const none = -1;

export class OwedPerResource {
  /** Per resource: since when something is owed (-1: nothing owed). */
  protected readonly owedSinceMs: Float64Array;
  protected readonly wanted: Uint8Array;
  protected owedCount = 0;

  constructor(count: number) {
    this.owedSinceMs = new Float64Array(count).fill(none);
    this.wanted = new Uint8Array(count);
  }

  onSubscribed(resource: number): void {
    this.wanted[resource] = 1;
  }

  onUnsubscribed(resource: number): void {
    this.wanted[resource] = 0;
    this.release(resource);
  }

  onCrash(): void {
    this.releaseAll();
  }

  /** Owes `resource` from `timeMs` unless something is owed already; true when it starts an obligation. */
  protected owe(resource: number, timeMs: number): boolean {
    if (this.owedSinceMs[resource]! !== none) return false;
    this.owedSinceMs[resource] = timeMs;
    this.owedCount++;
    return true;
  }

  protected release(resource: number): void {
    if (this.owedSinceMs[resource]! === none) return;
    this.owedSinceMs[resource] = none;
    this.owedCount--;
    if (this.owedCount === 0) this.nothingOwed();
  }

  protected releaseAll(): void {
    if (this.owedCount === 0) return;
    this.owedSinceMs.fill(none);
    this.owedCount = 0;
    this.nothingOwed();
  }

  /** Called when the last obligation goes. */
  protected nothingOwed(): void {}
}
