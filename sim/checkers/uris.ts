/**
 * URI family (SPEC §3.7, §6): `uri_confusion`, and which resource a URI the client names really is.
 *
 * The truth never borrows the client's canonicalisation (core/uri.ts): a URI names a resource when it is
 * the server's own spelling of it, or a spelling the server model made of it (actors/spelling.ts builds
 * equivalent spellings by construction and tells the oracle through the `spelled` truth event). Any other
 * text names no resource, so a client that canonicalises `a%2Fb` into `a/b` accepts the wrong resource's
 * content and is caught, whatever its canonicaliser believes.
 */
export class UriChecker {
  private readonly indexByUri = new Map<string, number>();

  constructor(uris: readonly string[]) {
    uris.forEach((uri, index) => this.indexByUri.set(uri, index));
  }

  /** The server made `spelling` as an equivalent spelling of `resource`. */
  onSpelled(spelling: string, resource: number): void {
    this.indexByUri.set(spelling, resource);
  }

  /** The resource index of a URI as the client named it (any spelling the server made), or -1. */
  resourceOf(uri: string): number {
    return this.indexByUri.get(uri) ?? -1;
  }
}
