/**
 * What the fences decided, per URI, as the shadow needs it to judge what an existing client serves: the
 * accepted version (digest and read ordinal), the digests of every version the fences saw (accepted earlier,
 * refused as stale or after close) with their ordinals, closed watches, revoked subjects, and the last
 * catalog the fences published (from two agreeing scans or a proven snapshot). Built from the cache's steps.
 */
import { contentDigest } from '../../../core/digest.js';
import type { ClientEffect, ClientInput } from '../../../core/types.js';

const seenPerUriMax = 64;

export interface SeenVersion {
  readOrdinal: number;
  /** 'accepted' (possibly superseded since), or why the fence refused it. */
  verdict: 'accepted' | 'stale' | 'after_close';
  detail: string;
}

export interface UriFenceView {
  accepted: { digest: string; readOrdinal: number; atMs: number } | null;
  /** digest -> the first time the fences saw it (bounded, oldest dropped first). */
  seen: Map<string, SeenVersion>;
  closed: { atMs: number; closeOrdinal: number; closeEpoch: number } | null;
}

export class FenceView {
  readonly uris = new Map<string, UriFenceView>();
  /** `subject uri` -> when the fences learned of the revocation. */
  readonly revoked = new Map<string, number>();
  catalog: { scanId: number; status: string; uris: string[]; atMs: number } | null = null;

  of(uri: string): UriFenceView | undefined {
    return this.uris.get(uri);
  }

  step(input: ClientInput, effects: readonly ClientEffect[]): void {
    if (input.type === 'AuthorizationChanged' && input.allowed === true) this.revoked.delete(input.subject + ' ' + input.uri);
    for (const effect of effects) this.effect(input, effect);
  }

  private effect(input: ClientInput, effect: ClientEffect): void {
    switch (effect.type) {
      case 'VersionAccepted': {
        const view = this.view(effect.uri);
        view.accepted = { digest: effect.digest, readOrdinal: effect.readOrdinal, atMs: input.nowMs };
        remember(view, effect.digest, { readOrdinal: effect.readOrdinal, verdict: 'accepted', detail: `accepted (ordinal ${effect.readOrdinal})` });
        break;
      }
      case 'StaleReceiptWritten':
        this.refused(input, effect.uri, { readOrdinal: effect.readOrdinal, verdict: 'stale', detail: `refused as stale (${effect.reason}, ordinal ${effect.readOrdinal} vs watermark ${effect.watermark})` });
        break;
      case 'AuditWritten':
        if (effect.kind === 'STALE_AFTER_CLOSE') this.refused(input, effect.uri, { readOrdinal: -1, verdict: 'after_close', detail: 'answered after its watch was closed' });
        break;
      case 'SubscriptionClosed':
        this.view(effect.uri).closed = { atMs: input.nowMs, closeOrdinal: effect.closeOrdinal, closeEpoch: effect.closeEpoch };
        break;
      case 'Transitioned':
        if (effect.to === 'SUBSCRIBING' || effect.to === 'ACTIVE') this.view(effect.uri).closed = null;
        break;
      case 'RevocationLearned':
        this.revoked.set(effect.subject + ' ' + effect.uri, input.nowMs);
        break;
      case 'CatalogPublished':
        this.catalog = { scanId: effect.scanId, status: effect.status, uris: effect.uris, atMs: input.nowMs };
        break;
      default:
        break;
    }
  }

  /** A refused read: the digest of the content it carried (from the response of this step). */
  private refused(input: ClientInput, uri: string, seen: SeenVersion): void {
    if (input.type !== 'ResponseArrived' || input.outcome.type !== 'result') return;
    const text = contentText(input.outcome.result);
    if (text !== null) remember(this.view(uri), contentDigest(text), seen);
  }

  private view(uri: string): UriFenceView {
    let view = this.uris.get(uri);
    if (view === undefined) {
      view = { accepted: null, seen: new Map(), closed: null };
      this.uris.set(uri, view);
    }
    return view;
  }
}

function remember(view: UriFenceView, digest: string, seen: SeenVersion): void {
  if (view.seen.has(digest)) return;
  view.seen.set(digest, seen);
  if (view.seen.size > seenPerUriMax) view.seen.delete(view.seen.keys().next().value!);
}

function contentText(result: unknown): string | null {
  const contents = (result as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents) || contents.length === 0) return null;
  const text = (contents[0] as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : null;
}
