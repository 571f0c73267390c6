/** One resources/list page's entries and result as the simulated server serves them (sim/actors/listing.ts, listing-edges.ts). */
export interface PageEntry {
  uri: string;
  name: string;
  mimeType: string;
}

/** A page's result as served (malformed-list-page breaks its types). */
export interface ListResult {
  resources: readonly (PageEntry | { name: string; mimeType: string } | { uri: string; mimeType: string } | null)[] | { items: PageEntry[] };
  nextCursor?: string | number;
  snapshotId?: string | number;
  ttlMs?: number;
  cacheScope?: string;
}
