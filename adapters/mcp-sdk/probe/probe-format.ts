/** A probe report as text a person reads in a terminal or a CI log. */
import type { ProbeCheck } from './probe-checks.js';
import type { ProbeReport } from './probe-types.js';
import { stderrSummaryLines } from './stderr-tail.js';
import type { EraListen, EraProbeReport } from './probe-era.js';

/** The era phase (probe-era.ts) as text. */
function formatEra(era: EraProbeReport): string[] {
  const lines = [`era (SDK v2 Client, versionNegotiation auto): ${era.protocolVersion ?? 'not negotiated'} (${era.era ?? '?'})${era.connectMs === null ? '' : `, connect ${era.connectMs} ms`}${era.error === null ? '' : `; error: ${era.error}`}`];
  if (era.era !== 'modern') return lines;
  for (const hint of era.hints) lines.push(`  ${hint.method}${hint.uri === null ? '' : ` ${hint.uri}`}: ttlMs ${JSON.stringify(hint.ttlMs)}, cacheScope ${JSON.stringify(hint.cacheScope)}`);
  const listen = (label: string, value: EraListen | null): string =>
    value === null
      ? `  ${label}: not done`
      : `  ${label}: ack after ${value.ackMs ?? '?'} ms, honored filter ${value.filter}; updates ${value.updates}: tagged with its id ${value.tagged}, untagged ${value.untagged}, other id ${value.otherTag}`;
  lines.push(listen('listen', era.listen));
  const restart = era.restart;
  if (restart !== null) {
    lines.push(`  restart: old listen closed ${JSON.stringify(restart.oldListenClosed)}; updates before a new listen ${restart.updatesBeforeRelisten}`);
    lines.push(listen('  re-listen', restart.relisten));
  }
  lines.push(`  server processes started by the era phase ${era.processes}, all gone: ${era.processesGone}`);
  return lines;
}

export function formatProbeReport(report: ProbeReport): string {
  const lines: string[] = [];
  const spec = report.spec;
  lines.push(`fencesim probe: ${spec.serverCommand.join(' ')}`);
  lines.push(`  seed ${spec.seed}, observe ${spec.durationMs} ms, quiet ${spec.quietMs} ms, grace ${spec.graceMs} ms, request timeout ${spec.requestTimeoutMs} ms, timeout ${spec.timeoutMs} ms, content limit ${spec.contentCharsMax} chars`);
  lines.push(`  faults on incoming resource notifications: ${formatFaults(report)}`);
  lines.push(`outcome: ${report.outcome.toUpperCase()} in ${(report.elapsedMs / 1000).toFixed(1)} s${report.error === null ? '' : ` (${report.error})`}`);
  if (report.era !== null) lines.push(...formatEra(report.era));
  lines.push('');
  const server = report.server;
  lines.push(`server: ${server.name ?? '?'} ${server.version ?? '?'}, pid ${server.pid ?? 'none (not started)'}, connect + initialize ${server.connectMs === null ? 'not completed' : `${server.connectMs} ms`}`);
  const core = server.coreCapabilities;
  lines.push(`  capabilities: resources.subscribe=${core?.subscribe ?? '?'} resources.listChanged=${core?.listChanged ?? '?'}`);
  lines.push(`  declared: ${JSON.stringify(server.capabilities)}`);
  const listing = report.listing;
  const sizes = listing.pages.map((page) => page.size).join(', ');
  const empty = listing.pages.filter((page) => page.nextCursor === 'empty').length;
  const repeated = listing.pages.filter((page) => page.repeatedCursor).length;
  lines.push(`listing: ${listing.pages.length} page(s) [${clipList(sizes)}], ${listing.resources} resources, ${listing.duplicateUris} duplicate URIs; empty cursors ${empty}, repeated cursors ${repeated}${listing.walkMs === null ? '' : `; walked in ${listing.walkMs} ms`}${listing.endedAtPagesMax ? `; stopped at ${spec.pagesMax} pages with a cursor still given` : ''}${listing.error === null ? '' : `; error: ${listing.error}`}`);
  lines.push(`  invalid cursor: ${listing.invalidCursor.behaviour}${listing.invalidCursor.code === null ? '' : ` (code ${listing.invalidCursor.code})`}: ${listing.invalidCursor.detail}`);
  const catalogs = report.discovery.catalogs.map((catalog) => `${catalog.status} (${catalog.uris} URIs)`).join(', ') || 'none';
  lines.push(`discovery (core A/B scans): catalogs ${catalogs}; abandoned passes ${report.discovery.abandoned.length}`);
  lines.push(`toggle-subscriber-updates: ${report.toggleTool.listed ? `listed, called ${report.toggleTool.calls}x` : 'not listed'}`);
  const trigger = report.trigger;
  if (trigger !== null) lines.push(`trigger ${trigger.tool}: ${trigger.listed ? `called ${trigger.calls}x every ${trigger.everyMs} ms, ${trigger.errors} failed${trigger.lastError === null ? '' : ` (last: ${trigger.lastError.slice(0, 160)})`}` : 'NOT LISTED by the server'}`);
  lines.push(`served by get() while observing: ${report.serving.served} of ${report.serving.gets} calls`);
  lines.push(`changes observed: ${report.changesObserved} (updates on the wire plus later accepted versions of the subscribed resources)`);
  lines.push('subscriptions:');
  for (const subscription of report.subscriptions) {
    lines.push(`  ${subscription.uri}`);
    lines.push(
      `    subscribe ACK at ${ms(subscription.subscribeAckAtMs)}; updates on wire ${subscription.updatesOnWire}, delivered to the core ${subscription.updatesDelivered}; gaps [${subscription.updateGapsMs.join(', ')}] ms`,
    );
    lines.push(`    versions accepted ${subscription.versionsAccepted}, stale receipts ${subscription.staleReceipts}`);
    lines.push(
      `    unsubscribe began ${ms(subscription.unsubscribeBeganAtMs)}, ACK ${ms(subscription.unsubscribeAckAtMs)}; updates on wire after ACK ${subscription.updatesOnWireAfterAck}, delivered after ACK + grace ${subscription.updatesDeliveredAfterGrace}`,
    );
  }
  const faults = report.faults;
  lines.push(`faults injected: ${faults.seen} resource notifications seen, dropped ${faults.dropped}, duplicated ${faults.duplicated}, delayed ${faults.delayed}`);
  lines.push(`malformed messages (client.onerror): ${report.malformedMessageCount}`);
  for (const refusal of report.contentLimit.refused.slice(0, 5)) lines.push(`content over the limit: ${refusal.uri} has ${refusal.chars} characters > ${report.contentLimit.contentCharsMax} (raise with --content-chars-max)`);
  for (const message of report.malformedMessages.slice(0, 5)) lines.push(`  ${ms(message.atMs)} ${message.kind}: ${message.message.slice(0, 160)}`);
  const counts = Object.entries(report.effectCounts)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([type, count]) => `${type} ${count}`)
    .join(', ');
  lines.push(`effects: ${counts}`);
  lines.push('fence decisions (first 12):');
  for (const decision of report.fenceDecisions.slice(0, 12)) lines.push(`  ${ms(decision.atMs).padStart(9)} ${decision.type} ${decision.uri} ${decision.detail}`);
  lines.push('invariants:');
  for (const check of report.invariants) lines.push(formatCheck(check));
  lines.push('expectations:');
  for (const check of report.expectations) lines.push(formatCheck(check));
  const cleanup = report.cleanup;
  const gone = cleanup.processGone === null ? 'no process was started' : cleanup.processGone ? 'nothing left (checked by process group)' : 'NO: processes of its group still run';
  lines.push(`cleanup: close ${ms(cleanup.closeMs)}, SIGKILL fallback ${cleanup.killFallback ? 'used' : 'not needed'}; ${gone}`);
  if (server.process !== null) lines.push(`  server process: ${server.process.summary}`);
  lines.push(`peak RSS of the probe: ${(report.peakRssBytes / 1024 / 1024).toFixed(0)} MB`);
  const stderr = stderrSummaryLines(report.stderrNotable, report.stderrTail);
  if (stderr.length > 0) lines.push('server stderr (the lines naming a cause, then the last lines):', ...stderr.map((line) => `  ${line.slice(0, 300)}`));
  return lines.join('\n');
}

function formatCheck(check: ProbeCheck): string {
  return `  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`;
}

function clipList(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}, …` : text;
}

function ms(value: number | null): string {
  return value === null ? 'never' : `${value} ms`;
}

function formatFaults(report: ProbeReport): string {
  const faults = report.spec.faults;
  const ratio = (value: { numerator: number; denominator: number } | null): string => (value === null ? 'off' : `${value.numerator}/${value.denominator}`);
  return `drop ${ratio(faults.drop)}, duplicate ${ratio(faults.duplicate)}, delay ${ratio(faults.delay)} (up to ${faults.delayMsMax} ms)`;
}
