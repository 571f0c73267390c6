/**
 * Commands that take operands (`report DIR`, `merge DIR...`): operands and options may be mixed. An
 * option that takes a value keeps the argument after it (unless written --name=value); every other
 * argument that does not start with '-' is an operand. Options then go through parseOptions as usual.
 */
import type { OptionTable } from './args.js';

export function splitOperands(argv: readonly string[], table: OptionTable): { operands: string[]; options: string[] } {
  const operands: string[] = [];
  const options: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (!argument.startsWith('-') || argument === '-') {
      operands.push(argument);
      continue;
    }
    options.push(argument);
    const name = argument.startsWith('--') && !argument.includes('=') ? argument.slice(2) : '';
    const kind = table[name];
    const next = argv[index + 1];
    if (kind !== undefined && kind !== 'flag' && next !== undefined && !next.startsWith('--')) {
      options.push(next);
      index++;
    }
  }
  return { operands, options };
}
