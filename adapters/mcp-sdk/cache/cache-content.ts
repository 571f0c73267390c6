/**
 * The bodies of accepted versions in the cache's `ContentStore`: kept as the core accepts, purges and
 * confirms deletions (`keepContent`), and what `get` returns for the effects of a `ServeCommanded` step
 * (`getResultOf`): the body the fence accepted, checked against the served digest, or why not, naming the
 * content limit when that is why.
 *
 * Bodies are keyed by canonical URI; the durable ledger holds digests only. Persist both to restart warm; a
 * recovered ledger without its bodies refuses to serve until re-read.
 */
import type { ClientEffect, ClientUnderTest } from '../../../core/types.js';
import type { ContentStore, GetResult } from './cache-types.js';
import { describeRefusal, type ContentLimitMemory } from './content-limit.js';

export function getResultOf(effects: readonly ClientEffect[], contentStore: ContentStore, contentLimit: ContentLimitMemory, options: { textOnly?: boolean }): GetResult {
  for (const effect of effects) {
    if (effect.type === 'ContentRefused') return { served: false, reason: withContentLimit(contentLimit, effect.uri, effect.reason) };
    if (effect.type === 'ProtocolRejected') return { served: false, reason: effect.rejection.detail };
    if (effect.type !== 'ContentServed') continue;
    const content = contentStore.get(effect.uri);
    if (content === undefined || content.digest !== effect.digest) {
      return { served: false, reason: 'the accepted version is not in the content store (recovered without its bodies?); waiting for a read' };
    }
    const encoding = content.encoding ?? 'text';
    if (options.textOnly === true && encoding !== 'text') return { served: false, reason: `the content is a base64 blob (${content.mimeType}), not text` };
    return { served: true, uri: effect.uri, text: content.text, encoding, mimeType: content.mimeType, digest: effect.digest };
  }
  return { served: false, reason: 'the core neither served nor refused' };
}

function withContentLimit(contentLimit: ContentLimitMemory, uri: string, reason: string): string {
  const refusal = contentLimit.refusalOf(uri);
  return refusal === undefined ? reason : `${reason}; ${describeRefusal(refusal)}`;
}

/** Carries out an effect on the content store (accepted bodies in, purged and deleted ones out); others are no-ops. */
export function keepContent(effect: ClientEffect, contentStore: ContentStore, logic: ClientUnderTest<any>, state: unknown): void {
  switch (effect.type) {
    case 'VersionAccepted':
      contentStore.set(effect.uri, { digest: effect.digest, text: effect.text, encoding: effect.encoding, mimeType: effect.mimeType });
      break;
    case 'PurgeDone':
    case 'TombstoneConfirmed':
      if (!keepsVersion(logic, state, effect.uri)) contentStore.delete(effect.uri);
      break;
    case 'OutboxEntryWritten':
      if (effect.operation !== 'upsert' && !keepsVersion(logic, state, effect.uri)) contentStore.delete(effect.uri);
      break;
    default:
      break;
  }
}

/**
 * Whether the client still holds an accepted version of `uri` (its body must stay in the store). Known
 * for clients whose durable ledger lists versions (the reference core); others hold none after a
 * purge, a confirmed deletion or a delete/invalidate outbox entry.
 */
function keepsVersion(logic: ClientUnderTest<any>, state: unknown, uri: string): boolean {
  const ledger = logic.durable?.(state) as { versions?: Record<string, unknown> } | null | undefined;
  return typeof ledger?.versions === 'object' && ledger.versions !== null && ledger.versions[uri] !== undefined;
}
