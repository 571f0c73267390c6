/**
 * Checkers at quiescence (after the heal phase, which includes full hash passes): deleted content still
 * in the store or served (resurrection), a "synced" claim that is wrong, a lost vector write.
 */
import { semanticDistance } from '../edits.js';
import { readIndex } from '../read-path.js';
import type { Checker } from './checker.js';
import { violation } from './checker.js';

export function resurrection(): Checker {
  return {
    invariant: 'resurrection', checked: 0, violated: 0,
    atEnd(truth) {
      for (const uri of truth.uris) {
        const resource = truth.truth(uri);
        if (resource === undefined || !resource.deleted) continue;
        this.checked++;
        const left = truth.store.rowsOf(uri).filter((row) => row.sequence < resource.sequence);
        const read = readIndex(truth.state, uri, truth.store.rowsOf(uri));
        if (left.length === 0 && !read.served) continue;
        this.violated++;
        return violation(this.invariant, truth, uri, read.served ? `deleted at ${resource.sequence}, still served` : `deleted at ${resource.sequence}, ${left.length} rows of older versions still in the store`);
      }
      return null;
    },
  };
}

export function syncedWrong(): Checker {
  return {
    invariant: 'synced_wrong', checked: 0, violated: 0,
    atEnd(truth) {
      for (const uri of truth.uris) {
        const resource = truth.truth(uri);
        const row = truth.state.durable.meta[uri];
        if (resource === undefined || row === undefined || row.status !== 'synced') continue;
        this.checked++;
        const wrong = describeWrong(truth, uri, resource, row);
        if (wrong === null) continue;
        this.violated++;
        return violation(this.invariant, truth, uri, wrong);
      }
      return null;
    },
  };
}

function describeWrong(
  truth: Parameters<NonNullable<Checker['atEnd']>>[0],
  uri: string,
  resource: NonNullable<ReturnType<Parameters<NonNullable<Checker['atEnd']>>[0]['truth']>>,
  row: NonNullable<Parameters<NonNullable<Checker['atEnd']>>[0]['state']['durable']['meta'][string]>,
): string | null {
  if (resource.deleted !== row.deleted) return `synced, but the source is ${resource.deleted ? 'deleted' : 'live'}`;
  if (resource.deleted) return null;
  if (row.hash !== resource.digest) return `synced at hash ${row.hash.slice(0, 8)}, the source is at ${resource.digest.slice(0, 8)}`;
  const published = row.indexed[truth.state.durable.models.active];
  const publishedModel = published === undefined ? null : truth.versionModel(uri, published.sequence);
  if (publishedModel === null || resource.model === null) return 'synced with nothing published';
  const distance = semanticDistance(publishedModel, resource.model);
  return distance >= 1 ? `synced, but the published version ${published!.sequence} differs in meaning from the source (distance ${distance})` : null;
}

export function lostVectorWrite(): Checker {
  return {
    invariant: 'lost_vector_write', checked: 0, violated: 0,
    atEnd(truth) {
      for (const uri of truth.uris) {
        const resource = truth.truth(uri);
        if (resource === undefined || resource.deleted) continue;
        this.checked++;
        const read = readIndex(truth.state, uri, truth.store.rowsOf(uri));
        if (read.served) continue;
        this.violated++;
        return violation(this.invariant, truth, uri, `live at version ${resource.sequence}, but the read path refuses: ${read.reason}`);
      }
      return null;
    },
  };
}
