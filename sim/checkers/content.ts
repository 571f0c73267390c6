/**
 * The content the server produced, per resource: the highest registered version and the versions below it
 * that were never content (deletions). Texts are parsed back with the server's convention (actors/server.ts),
 * so no map of every text ever served is kept. The oracle dates accepted texts with it.
 */
import { parseContent } from '../actors/server.js';

export interface ContentTruth {
  resource: number;
  version: number;
}

export class ContentRegistry {
  private readonly indexByUri = new Map<string, number>();
  private readonly versionMax: Int32Array;
  private readonly gaps: number[][];
  private readonly scratch: ContentTruth = { resource: -1, version: 0 };

  constructor(private readonly uris: readonly string[]) {
    uris.forEach((uri, index) => this.indexByUri.set(uri, index));
    this.versionMax = new Int32Array(uris.length);
    this.gaps = uris.map(() => []);
  }

  /** The server produced `text` for `resource` at `version`. */
  register(text: string, resource: number, version: number): void {
    void text;
    const max = this.versionMax[resource]!;
    const gaps = this.gaps[resource]!;
    if (version > max) {
      for (let skipped = max + 1; skipped < version; skipped++) gaps.push(skipped);
      this.versionMax[resource] = version;
    } else {
      const index = gaps.indexOf(version);
      if (index >= 0) gaps.splice(index, 1);
    }
  }

  /** The resource and version a content text was produced for, or undefined (valid until the next call). */
  truthOf(text: string): ContentTruth | undefined {
    const parsed = parseContent(text);
    if (parsed === null) return undefined;
    const resource = this.indexByUri.get(parsed.uri);
    if (resource === undefined || parsed.version > this.versionMax[resource]! || this.gaps[resource]!.includes(parsed.version)) return undefined;
    const scratch = this.scratch;
    scratch.resource = resource;
    scratch.version = parsed.version;
    return scratch;
  }

  /** `uri vN`, or a phrase saying the server never served it (for timelines). */
  describe(text: string): string {
    const truth = this.truthOf(text);
    return truth === undefined ? 'content the server never served' : `${this.uris[truth.resource]} v${truth.version}`;
  }
}
