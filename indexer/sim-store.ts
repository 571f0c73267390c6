/**
 * The simulated vector store, with the guarantees real stores give:
 * - conditional-upsert: a row is replaced only by a newer version (`WHERE chunks.seq < EXCLUDED.seq`) and
 *   a purge leaves a tombstone that rejects older rows for good (what the PGlite store does);
 * - blind-upsert: last write wins, a purge leaves nothing (Qdrant without conditional writes);
 * - expiring-tombstones: conditional, but tombstones are forgotten after 5 s (Elasticsearch's 60 s);
 * - transactional: conditional, and a write is atomic with its acknowledgement (no partial write, no lost ack).
 */
import type { StoreProfile } from './sim-plan.js';
import type { ChunkRow, StoreSummary, VectorWrite } from './types.js';

export const tombstoneExpiryMs = 5_000;

export class SimStore {
  private readonly rows = new Map<string, ChunkRow>();
  private readonly tombstones = new Map<string, { sequence: number; atMs: number }>();

  constructor(readonly profile: StoreProfile) {}

  /** Applies the first `rowsMax` rows of a write (all of them when not partial). */
  apply(write: VectorWrite, nowMs: number, rowsMax: number): void {
    if (write.purge) return this.purge(write.uri, write.sequence, nowMs);
    const tombstone = this.liveTombstone(write.uri, nowMs);
    if (tombstone !== null && write.sequence <= tombstone && this.profile !== 'blind-upsert') return;
    const count = Math.min(rowsMax, write.rows.length);
    for (let index = 0; index < count; index++) {
      const row = write.rows[index]!;
      const key = keyOf(row.uri, row.model, row.slot, row.position);
      const existing = this.rows.get(key);
      if (existing !== undefined && existing.sequence >= row.sequence && this.profile !== 'blind-upsert') continue;
      this.rows.set(key, row);
    }
    if (count < write.rows.length) return;
    for (const [key, row] of this.rows) {
      if (row.uri === write.uri && row.model === write.model && row.slot === write.slot && row.position >= write.deleteFromPosition) {
        if (this.profile === 'blind-upsert' || row.sequence <= write.sequence) this.rows.delete(key);
      }
    }
  }

  private purge(uri: string, sequence: number, nowMs: number): void {
    for (const [key, row] of this.rows) if (row.uri === uri && (this.profile === 'blind-upsert' || row.sequence <= sequence)) this.rows.delete(key);
    if (this.profile !== 'blind-upsert') {
      const old = this.tombstones.get(uri);
      if (old === undefined || old.sequence < sequence) this.tombstones.set(uri, { sequence, atMs: nowMs });
    }
  }

  private liveTombstone(uri: string, nowMs: number): number | null {
    const tombstone = this.tombstones.get(uri);
    if (tombstone === undefined) return null;
    if (this.profile === 'expiring-tombstones' && nowMs - tombstone.atMs >= tombstoneExpiryMs) return null;
    return tombstone.sequence;
  }

  /** Data loss: every row of one URI is gone (tombstones too). */
  lose(uri: string): void {
    for (const [key, row] of this.rows) if (row.uri === uri) this.rows.delete(key);
    this.tombstones.delete(uri);
  }

  rowsOf(uri: string): ChunkRow[] {
    const found: ChunkRow[] = [];
    for (const row of this.rows.values()) if (row.uri === uri) found.push(row);
    return found;
  }

  summaries(): StoreSummary[] {
    const byKey = new Map<string, StoreSummary>();
    for (const row of this.rows.values()) {
      const key = row.uri + '|' + row.model + '|' + row.slot;
      let summary = byKey.get(key);
      if (summary === undefined) {
        summary = { uri: row.uri, model: row.model, slot: row.slot, sequences: [] };
        byKey.set(key, summary);
      }
      summary.sequences[row.position] = row.sequence;
    }
    const list = [...byKey.values()];
    for (const summary of list) summary.sequences = Array.from(summary.sequences, (sequence) => sequence ?? -1);
    return list.sort((a, b) => (a.uri + a.model + a.slot < b.uri + b.model + b.slot ? -1 : 1));
  }
}

function keyOf(uri: string, model: string, slot: number, position: number): string {
  return uri + '|' + model + '|' + slot + '|' + position;
}
