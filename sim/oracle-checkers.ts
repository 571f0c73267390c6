/**
 * The oracle's checkers: one instance of each invariant family's checker (sim/checkers/*, `checkerFamilies` in
 * invariants.ts), built once per interleaving, and the lookups they share (URI names, content dating). The
 * routing of effects and truth events to them is the Oracle (oracle.ts); the accounting is the base class
 * (oracle-accounts.ts).
 */
import { WatchChecker } from './checkers/era2026-watch.js';
import { Era2026ServingCheckers } from './checkers/era2026-serving.js';
import { AmplificationChecker } from './checkers/amplification.js';
import { AnswerChecker } from './checkers/answers.js';
import { InputChecker } from './checkers/inputs.js';
import { EffectShapeChecker } from './checkers/effect-shape.js';
import { OfferedRequestChecker } from './checkers/offered.js';
import { CatalogChecker } from './checkers/catalog.js';
import { CatalogAbChecker } from './checkers/catalog-ab.js';
import { CatalogTruthChecker } from './checkers/catalog-truth.js';
import { CatalogLivenessChecker } from './checkers/catalog-liveness.js';
import { CatalogDecisionChecker } from './checkers/catalog-decisions.js';
import { ExistenceHistory } from './checkers/existence-history.js';
import { DeletionChecker } from './checkers/deletion.js';
import { ReappearanceChecker } from './checkers/reappearance.js';
import { ServerSubscriptionChecker } from './checkers/server-subscriptions.js';
import { StalenessBoundChecker } from './checkers/staleness-bound.js';
import { AvailabilityChecker } from './checkers/availability.js';
import { TaskAgeChecker } from './checkers/task-age.js';
import { OutboxLineageChecker } from './checkers/outbox-lineage.js';
import { CloseRecordChecker } from './checkers/close-record.js';
import { ScanRecordChecker } from './checkers/scan-record.js';
import { CloseChecker } from './checkers/close.js';
import { ContentRegistry } from './checkers/content.js';
import { ConvergenceChecker } from './checkers/convergence.js';
import { CrashChecker } from './checkers/crash.js';
import { RevocationChecker } from './checkers/revocation.js';
import { ServingChecker } from './checkers/serving.js';
import { SessionChecker } from './checkers/sessions.js';
import { UriChecker } from './checkers/uris.js';
import { VersionChecker } from './checkers/versions.js';
import { NotificationReadChecker } from './checkers/notification-reads.js';
import { RenewalChecker } from './checkers/era2026-renewal.js';
import { UnsubscribeAckChecker } from './checkers/unsubscribe-acks.js';
import { NotificationRecordChecker } from './checkers/notification-records.js';
import { SubscriptionHeldChecker } from './checkers/subscription-held.js';
import { OracleAccounts } from './oracle-accounts.js';

export class OracleCheckers extends OracleAccounts {
  readonly names: UriChecker;
  readonly close: CloseChecker;
  readonly sessions: SessionChecker;
  readonly convergence: ConvergenceChecker;
  readonly versions: VersionChecker;
  readonly amplification: AmplificationChecker;
  readonly catalog: CatalogChecker;
  readonly revocation: RevocationChecker;
  readonly crash: CrashChecker;
  readonly era2026Watch: WatchChecker;
  readonly era2026Serving: Era2026ServingCheckers;
  readonly serving: ServingChecker;
  readonly catalogAb: CatalogAbChecker;
  /** The truth's existence history, shared by catalogTruth, catalogLiveness and reappearance. */
  readonly existence: ExistenceHistory;
  readonly catalogTruth: CatalogTruthChecker;
  readonly catalogLiveness: CatalogLivenessChecker;
  readonly catalogDecisions: CatalogDecisionChecker;
  readonly deletion: DeletionChecker;
  readonly reappearance: ReappearanceChecker;
  readonly taskAge: TaskAgeChecker;
  readonly serverSubscriptions: ServerSubscriptionChecker;
  readonly stalenessBound: StalenessBoundChecker;
  readonly availability: AvailabilityChecker;
  readonly answers: AnswerChecker;
  readonly inputs: InputChecker;
  readonly effectShape: EffectShapeChecker;
  readonly offered: OfferedRequestChecker;
  readonly notifiedReads: NotificationReadChecker;
  readonly outboxLineage: OutboxLineageChecker;
  readonly closeRecord: CloseRecordChecker;
  readonly scanRecord: ScanRecordChecker;

  /** How many resources the run has (indexes 0 .. resourceCount - 1). */
  readonly resourceCount: number;
  readonly renewal: RenewalChecker;
  readonly unsubscribeAcks: UnsubscribeAckChecker;
  readonly notificationRecords: NotificationRecordChecker;
  readonly subscriptionHeld: SubscriptionHeldChecker;

  /** What content the server produced (to date accepted texts without a map of every text ever served). */
  protected readonly content: ContentRegistry;

  constructor(uris: readonly string[], edgeCount: number) {
    super(edgeCount);
    this.resourceCount = uris.length;
    this.content = new ContentRegistry(uris);
    this.names = new UriChecker(uris);
    this.close = new CloseChecker(this, uris.length);
    this.sessions = new SessionChecker(this);
    this.convergence = new ConvergenceChecker(this, uris);
    this.serving = new ServingChecker(this, uris);
    this.versions = new VersionChecker({ sink: this, uris, names: this.names, content: this.content, close: this.close, sessions: this.sessions, convergence: this.convergence, serving: this.serving });
    this.amplification = new AmplificationChecker(uris.length);
    this.catalog = new CatalogChecker(this, uris.length);
    this.revocation = new RevocationChecker(this, uris);
    this.crash = new CrashChecker(this, uris.length);
    this.era2026Watch = new WatchChecker(this);
    this.era2026Serving = new Era2026ServingCheckers(this, this.era2026Watch, uris);
    this.catalogAb = new CatalogAbChecker(this, uris);
    this.existence = new ExistenceHistory(uris.length);
    this.catalogTruth = new CatalogTruthChecker(this, uris, this.existence);
    this.catalogLiveness = new CatalogLivenessChecker(this, uris, this.existence);
    this.catalogDecisions = new CatalogDecisionChecker(this, () => this.catalogLiveness.claimed, () => this.catalogLiveness.listChangedDebounceMs);
    this.deletion = new DeletionChecker(this, uris, (resource) => this.convergence.boundOf(resource));
    this.reappearance = new ReappearanceChecker(this, uris, this.existence);
    this.taskAge = new TaskAgeChecker(this);
    this.serverSubscriptions = new ServerSubscriptionChecker(this, uris);
    this.stalenessBound = new StalenessBoundChecker(this);
    this.availability = new AvailabilityChecker(this, uris, this.era2026Watch);
    this.answers = new AnswerChecker(this, uris);
    this.inputs = new InputChecker(this);
    this.effectShape = new EffectShapeChecker(this);
    this.offered = new OfferedRequestChecker(this);
    this.notifiedReads = new NotificationReadChecker(this, uris, this.era2026Watch);
    this.outboxLineage = new OutboxLineageChecker(this);
    this.closeRecord = new CloseRecordChecker(this);
    this.scanRecord = new ScanRecordChecker(this);
    const notification = this.era2026Serving.notification;
    this.renewal = new RenewalChecker(this, uris, this.era2026Watch, (listenId) => notification.requestedOf(listenId));
    this.unsubscribeAcks = new UnsubscribeAckChecker(this, this.close, (uri) => this.resourceOf(uri));
    this.notificationRecords = new NotificationRecordChecker(this, (uri) => this.resourceOf(uri));
    this.subscriptionHeld = new SubscriptionHeldChecker(this, uris);
  }

  get notificationReads(): number {
    return this.amplification.notificationReads;
  }
  get totalReads(): number {
    return this.amplification.totalReads;
  }
  get notifiedChanges(): number {
    return this.amplification.notifiedChanges;
  }
  get changesTracked(): number {
    return this.convergence.changesTracked;
  }
  get changesConverged(): number {
    return this.convergence.changesConverged;
  }
  get convergenceLatenciesMs(): number[] {
    return this.convergence.latenciesMs;
  }
  get staleServes(): number {
    return this.convergence.staleServes;
  }
  get accepts(): number {
    return this.versions.accepts;
  }
  get crashes(): number {
    return this.crash.crashes;
  }

  /** The resource index of a URI as the client named it (any spelling the server made), or -1. */
  resourceOf(uri: string): number {
    return this.names.resourceOf(uri);
  }

  /** Ground truth of a content text, for timelines: `uri vN`, or '' when the server never served it. */
  describeContent(text: string): string {
    return this.content.describe(text);
  }

  /** The server produced `text` (its content convention, see actors/server.ts) for `resource` at `version`. */
  registerContent(text: string, resource: number, version: number): void {
    this.content.register(text, resource, version);
  }
}
