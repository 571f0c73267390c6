/**
 * Version family (SPEC §3.1, §6): `version_regression`, `late_tombstone` (the not-found half; the deletion
 * half is in catalog.ts), and the accept side of `uri_confusion`, `accept_when_not_active` and
 * `old_session_effect`. Accepted content is dated by the server's content convention (content.ts); the
 * highest truth version the client accepted per resource must never go back.
 */
import type { ContentRegistry } from './content.js';
import type { CloseChecker } from './close.js';
import type { ConvergenceChecker } from './convergence.js';
import type { ServingChecker } from './serving.js';
import type { SessionChecker } from './sessions.js';
import type { ViolationSink } from './sink.js';
import type { StepTruth } from './step-truth.js';
import type { UriChecker } from './uris.js';

export interface VersionParts {
  sink: ViolationSink;
  uris: readonly string[];
  names: UriChecker;
  content: ContentRegistry;
  close: CloseChecker;
  sessions: SessionChecker;
  convergence: ConvergenceChecker;
  serving: ServingChecker;
}

export class VersionChecker {
  accepts = 0;
  /** Per resource: highest truth version (content or deletion) the client accepted. */
  private readonly acceptedVersion: Int32Array;

  constructor(private readonly parts: VersionParts) {
    this.acceptedVersion = new Int32Array(parts.uris.length).fill(-1);
  }

  judgeAccept(uri: string, text: string, digest: string, truth: StepTruth): void {
    const { sink, sessions, close } = this.parts;
    this.accepts++;
    const resource = this.parts.names.resourceOf(uri);
    const content = this.parts.content.truthOf(text);
    if (content === undefined || resource !== content.resource) {
      const really = content === undefined ? 'content the server never served' : `content of ${this.parts.uris[content.resource]} v${content.version}`;
      sink.violate('uri_confusion', truth.timeMs, uri, `accepted ${really} as ${uri}`);
      return;
    }
    if (sessions.causedByOldSession(truth)) sessions.violateCause(truth, uri, `accepted v${content.version} because of an old session's notification`);
    if (close.closedSince(resource, truth)) {
      sink.violate('accept_when_not_active', truth.timeMs, uri, `accepted v${content.version} after its subscription began closing`);
    } else if (sessions.sessionEnded(truth)) {
      sink.violate('accept_when_not_active', truth.timeMs, uri, `accepted v${content.version} from a read of session ${truth.requestSession} after it ended (now session ${truth.currentSession})`);
    }
    this.parts.convergence.rememberDigest(resource, digest, content.version);
    this.parts.serving.onAccepted(resource, truth);
    this.raise(resource, content.version, uri, truth.timeMs);
  }

  judgeTombstone(uri: string, truth: StepTruth): void {
    const { sink, sessions, close } = this.parts;
    const resource = this.parts.names.resourceOf(uri);
    if (resource < 0) {
      sink.violate('uri_confusion', truth.timeMs, uri, `tombstoned ${uri}, which the server never had`);
      return;
    }
    if (truth.servedResource !== resource || truth.servedExists) {
      sink.violate('late_tombstone', truth.timeMs, uri, `tombstoned ${uri} without a not-found for it in this step`);
      return;
    }
    const accepted = this.acceptedVersion[resource]!;
    if (close.closedSince(resource, truth)) {
      sink.violate('late_tombstone', truth.timeMs, uri, `tombstoned ${uri} from a not-found that arrived after close`);
      sink.violate('accept_when_not_active', truth.timeMs, uri, `tombstone for ${uri} after its subscription began closing`);
    } else if (accepted > truth.servedVersion) {
      sink.violate('late_tombstone', truth.timeMs, uri, `tombstoned ${uri} from a not-found at v${truth.servedVersion}, older than accepted v${accepted}`);
    } else if (sessions.sessionEnded(truth)) {
      sink.violate('accept_when_not_active', truth.timeMs, uri, `tombstone from a read of ended session ${truth.requestSession}`);
    }
    if (truth.servedVersion >= accepted) this.raise(resource, truth.servedVersion, uri, truth.timeMs); // older: already late_tombstone
  }

  /** The highest truth version the client accepted for `resource` (-1: none). */
  acceptedOf(resource: number): number {
    return this.acceptedVersion[resource]!;
  }

  private raise(resource: number, version: number, uri: string, timeMs: number): void {
    const previous = this.acceptedVersion[resource]!;
    if (version < previous) {
      this.parts.sink.violate('version_regression', timeMs, uri, `accepted v${version} after v${previous}`);
      return;
    }
    this.acceptedVersion[resource] = version;
    this.parts.convergence.onAccepted(resource, version, uri, timeMs);
  }
}
