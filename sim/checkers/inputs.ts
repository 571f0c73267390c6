/**
 * Inputs a client must refuse or ignore (SPEC §11), made by the malformed-input fault (sim/actors/hostile-inputs.ts):
 *
 * - `malformed_input_accepted`: a step input with one malformed field gets exactly one effect, a typed rejection of
 *   the kind the field calls for, whose detail names the field and shows what it got (the fault's `shows`) in at
 *   most LEDGER_TEXT_CHARS_MAX characters; a valid input that must change nothing (`inert`) gets no effect at all.
 * - `malformed_input_not_inert`: the next real input is answered exactly as it would have been without the
 *   malformed (or inert) one: the same effects as the client's own step of that input from its state before it
 *   (the malformed input left the state unchanged). An equivalent spelling of a real input, handed in its place,
 *   is answered with the same effects as the input itself, and two spellings of one input (a subscribe without a
 *   subject and one for 'default'; sub-capabilities with and without a resources capability that is false), each
 *   stepped from the client's state, with the same effects as each other.
 *
 * Judged by effects only, against what the fault really handed the client; only step clients (SPEC §4), whose
 * state the driver can step twice (sim/kernel/reducer-driver.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ClientEffect } from '../../core/types.js';
import { LEDGER_TEXT_CHARS_MAX, isObject } from '../../core/protocol.js';
import type { HostileInput } from '../actors/hostile-inputs.js';
import type { CheckingSink } from './sink.js';

export class InputChecker {
  constructor(private readonly sink: CheckingSink) {}

  /** The step answering the hostile input `made` (not for `same`: judged by judgeInert alone); true when it violated. */
  judgeHostile(made: HostileInput, effects: readonly ClientEffect[], timeMs: number): boolean {
    this.sink.checked('malformed_input_accepted');
    const problem = made.expect === 'inert' ? this.inertProblem(effects) : this.rejectionProblem(made, effects);
    if (problem !== null) this.sink.violate('malformed_input_accepted', timeMs, '', `${made.kind}: ${problem}`);
    return problem !== null;
  }

  /** The step answering the hostile input `made` threw (SPEC §11: a step never throws on input). */
  judgeThrown(made: HostileInput, error: unknown, timeMs: number): void {
    this.sink.checked('malformed_input_accepted');
    const what = error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
    this.sink.violate('malformed_input_accepted', timeMs, '', `${made.kind}: the step threw (${what.slice(0, 160)})`);
  }

  /** `effects`: the real input's step after the hostile one (or the spelling's step); `twin`: the client's step of the real input from its state before. */
  judgeInert(made: HostileInput, effects: readonly ClientEffect[], twin: readonly ClientEffect[], timeMs: number): void {
    this.sink.checked('malformed_input_not_inert');
    if (isDeepStrictEqual(effects, twin)) return;
    const what = made.expect === 'pair' ? `one spelling (${made.kind})` : made.expect === 'same' ? `the input spelled ${made.kind}` : `the input after a ${made.kind} one`;
    const alone = made.expect === 'pair' ? 'the other' : 'the input alone';
    this.sink.violate('malformed_input_not_inert', timeMs, '', `${what} gave ${summary(effects)}, ${alone} ${summary(twin)}`);
  }

  private inertProblem(effects: readonly ClientEffect[]): string | null {
    return effects.length === 0 ? null : `a valid input that changes nothing gave ${summary(effects)}`;
  }

  private rejectionProblem(made: HostileInput, effects: readonly ClientEffect[]): string | null {
    const effect = effects[0];
    if (effects.length !== 1 || effect === undefined || effect.type !== 'ProtocolRejected') return `gave ${summary(effects)}, not one ${made.rejection} rejection`;
    const rejection: unknown = effect.rejection; // a client's effect: not trusted to have the shape its type says
    if (!isObject(rejection)) return 'a rejection without a kind';
    const { kind, detail } = rejection;
    if (kind !== made.rejection) return `rejected as ${String(kind)}, not ${made.rejection}`;
    if (typeof detail !== 'string') return 'a rejection without a detail';
    if (detail.length > LEDGER_TEXT_CHARS_MAX) return `a rejection detail of ${detail.length} characters, more than ${LEDGER_TEXT_CHARS_MAX}`;
    for (const shown of made.shows) {
      if (!detail.includes(shown)) return `the rejection detail ${JSON.stringify(detail.slice(0, 160))} does not show ${JSON.stringify(shown.slice(0, 80))}`;
    }
    return null;
  }
}

function summary(effects: readonly ClientEffect[]): string {
  if (effects.length === 0) return 'no effect';
  const types = effects.slice(0, 4).map((effect) => effect.type);
  return `[${types.join(', ')}${effects.length > 4 ? `, … ${effects.length} in all` : ''}]`;
}
