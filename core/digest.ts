/** Content digests: SHA-256 hex (SPEC §3.1). Pure: hashing reads no clock, no randomness, no state. */
import { createHash } from 'node:crypto';

export function contentDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
