/**
 * The store the harness gives a client claiming crashRecovery (`env.store`): what survives a client-crash.
 * `save` keeps what it got as JSON (a string, immutable, is kept as it is). `saveUnchanging` is for data
 * nobody changes once saved (the reference core's copy-on-write ledger, cache-module.ts): it keeps the value
 * and writes its JSON text only when it is loaded, so a ledger saved after every step is written once per
 * crash instead of once per step; `load` then gives exactly the text `save(JSON.stringify(value))` kept.
 */
import type { ModuleStore } from './contract.js';

export class JsonStore implements ModuleStore {
  private json: string | undefined;
  private text: string | undefined;
  private unchanging: { value: unknown } | null = null;

  load(): unknown {
    if (this.unchanging !== null) return JSON.stringify(this.unchanging.value) ?? 'null';
    if (this.text !== undefined) return this.text;
    return this.json === undefined ? undefined : JSON.parse(this.json);
  }

  save(value: unknown): void {
    const text = typeof value === 'string';
    this.unchanging = null;
    this.text = text ? value : undefined;
    this.json = text ? undefined : JSON.stringify(value);
  }

  /** Saves `value`, which must never be changed afterwards: loaded as its JSON text. */
  saveUnchanging(value: unknown): void {
    this.unchanging = { value };
    this.text = undefined;
    this.json = undefined;
  }
}
