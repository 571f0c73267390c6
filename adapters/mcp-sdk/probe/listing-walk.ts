/**
 * The probe's own walk of `resources/list` with the SDK client (its record of pages and cursors), in time
 * linear in the resources listed: duplicates are found with a set. A repeated cursor (a cycle) ends the walk,
 * so does `pagesMax` (an endless cursor); then one request with a cursor the server never gave shows what an
 * invalid cursor does.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ProbeReport } from './probe-types.js';

const FIRST_URIS = 10;

export async function walkListing(client: Client, listing: ProbeReport['listing'], pagesMax: number, requestTimeoutMs: number): Promise<string[]> {
  const uris = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  const options = { timeout: requestTimeoutMs };
  const startMs = performance.now();
  try {
    for (let page = 0; page < pagesMax; page++) {
      const result = await client.listResources(cursor === undefined ? undefined : { cursor }, options);
      const next = result.nextCursor;
      const repeated = next !== undefined && cursors.has(next);
      listing.pages.push({ size: result.resources.length, nextCursor: next === undefined ? 'none' : next === '' ? 'empty' : 'present', repeatedCursor: repeated });
      for (const resource of result.resources) {
        if (uris.has(resource.uri)) listing.duplicateUris++;
        else uris.add(resource.uri);
      }
      if (next === undefined || repeated) break;
      if (page === pagesMax - 1) listing.endedAtPagesMax = true;
      cursors.add(next);
      cursor = next;
    }
  } catch (error) {
    listing.error = error instanceof Error ? error.message : String(error);
  }
  listing.walkMs = Math.round(performance.now() - startMs);
  const all = [...uris];
  listing.resources = all.length;
  listing.firstUris = all.slice(0, FIRST_URIS);
  try {
    const bogus = await client.listResources({ cursor: 'fencesim-probe-invalid-cursor' }, options);
    listing.invalidCursor = { behaviour: 'ignored', code: null, detail: `returned a page of ${bogus.resources.length} resources` };
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null;
    listing.invalidCursor = { behaviour: 'error', code, detail: error instanceof Error ? error.message.slice(0, 200) : String(error) };
  }
  return all;
}
