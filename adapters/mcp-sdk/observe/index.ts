/** `fencesim/mcp-sdk/observe`: the fenced cache's observer (OpenTelemetry metrics), the shadow rollout and its share. */
export { CacheObserver, meterName, meterVersion, type CacheObserveOptions } from './metrics.js';
export { ShadowRollout, type Disagreement, type DisagreementReason, type ExistingServed, type RolloutServeResult, type ShadowHealth, type ShadowOptions } from './shadow.js';
export { rolloutPathOf, uriHash, shadowOnly, checkShare, type RolloutPath, type RolloutShare } from './rollout.js';
export { FenceView, type UriFenceView, type SeenVersion } from './fence-view.js';
export { formatHealth, healthOf, type CacheHealth, type HealthReason, type HealthThresholds } from '../../../observe/health.js';
export { instruments, shadowInstruments, uriLabelAttribute } from '../../../observe/instruments.js';
export { IndexerObserver, type IndexerObserveOptions } from './indexer-metrics.js';
export { indexerInstruments } from '../../../observe/indexer-fold.js';
