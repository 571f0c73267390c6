/**
 * Simulated edits with hidden ground-truth labels (only the oracle sees the label and the models):
 * - cosmetic: filler words of one or two blocks replaced (same meaning)
 * - reformat: layout changed (same words)
 * - local: every concept of one block replaced (a semantic change of one chunk)
 * - global: the concepts of most blocks replaced
 * - subtle: one concept word replaced (a real change that moves the resource vector little)
 * - creeping: one concept word drifted one step (`kalo` -> `kalo-1`): each step alone is small, but
 *   steps add up; two steps on one resource since the last confirmed version are a semantic change
 * Every choice goes through the `pick(label, n)` callback (the chooser), 0 being the simplest.
 */
import { conceptWords, conceptsPerBlock, fillerPerBlock, fillerWords, type BlockModel, type DocumentModel } from './text.js';

export const editLabels = ['cosmetic', 'reformat', 'local', 'global', 'subtle', 'creeping'] as const;
export type EditLabel = (typeof editLabels)[number];

export type Pick = (label: string, n: number) => number;

export function generateDocument(pick: Pick, blocksMin: number, blocksMax: number): DocumentModel {
  const count = blocksMin + pick('doc.blocks', blocksMax - blocksMin + 1);
  const blocks: BlockModel[] = [];
  for (let index = 0; index < count; index++) blocks.push(generateBlock(pick, index));
  return { blocks, layout: 0 };
}

function generateBlock(pick: Pick, salt: number): BlockModel {
  const concepts: string[] = [];
  for (let index = 0; index < conceptsPerBlock; index++) concepts.push(conceptWords[(pick('doc.concept', 256) + salt * 37 + index * 11) % 256]!);
  const filler: string[] = [];
  for (let index = 0; index < fillerPerBlock; index++) filler.push(fillerWords[(index * 7 + salt * 3) % fillerWords.length]!);
  return { concepts, filler };
}

/** Applies an edit; the new model shares no arrays with the old one. */
export function applyEdit(model: DocumentModel, label: EditLabel, pick: Pick): DocumentModel {
  const blocks = model.blocks.map((block) => ({ concepts: block.concepts.slice(), filler: block.filler.slice() }));
  const target = pick('edit.block', blocks.length);
  const block = blocks[target]!;
  switch (label) {
    case 'cosmetic': {
      const shift = 1 + pick('edit.filler', fillerWords.length - 1);
      for (let index = 0; index < block.filler.length; index += 2) block.filler[index] = shiftFiller(block.filler[index]!, shift);
      break;
    }
    case 'reformat':
      return { blocks, layout: (model.layout + 1 + pick('edit.layout', 3)) % 4 };
    case 'local':
      blocks[target] = freshBlock(block, pick);
      break;
    case 'global':
      for (let index = 0; index < blocks.length; index++) if (index === target || index % 3 !== 2) blocks[index] = freshBlock(blocks[index]!, pick);
      break;
    case 'subtle': {
      const position = pick('edit.word', block.concepts.length);
      block.concepts[position] = otherConcept(block.concepts[position]!, 1 + pick('edit.concept', 255));
      break;
    }
    case 'creeping': {
      const position = pick('edit.word', block.concepts.length);
      block.concepts[position] = drifted(block.concepts[position]!);
      break;
    }
  }
  return { blocks, layout: model.layout };
}

function freshBlock(block: BlockModel, pick: Pick): BlockModel {
  const offset = 1 + pick('edit.concept', 255);
  return { concepts: block.concepts.map((word, index) => otherConcept(word, offset + index * 53)), filler: block.filler.slice() };
}

function shiftFiller(word: string, shift: number): string {
  return fillerWords[(fillerWords.indexOf(word) + shift) % fillerWords.length]!;
}

function otherConcept(word: string, offset: number): string {
  const index = conceptWords.indexOf(rootOf(word));
  return conceptWords[(index + (offset % 255) + 1) % 256]!;
}

export function rootOf(word: string): string {
  const dash = word.indexOf('-');
  return dash === -1 ? word : word.slice(0, dash);
}

export function driftOf(word: string): number {
  const dash = word.indexOf('-');
  return dash === -1 ? 0 : Number(word.slice(dash + 1));
}

function drifted(word: string): string {
  return rootOf(word) + '-' + (driftOf(word) + 1);
}

/**
 * The oracle's semantic distance between two versions, per block (chunk): concept words that differ
 * count 1, drift steps count 1/2 each (so two creeping steps in one block make a change); the distance
 * is the largest block's, and a changed block count is a change. Semantically changed iff >= 1.
 */
export function semanticDistance(before: DocumentModel, after: DocumentModel): number {
  if (before.blocks.length !== after.blocks.length) return conceptsPerBlock;
  let largest = 0;
  for (let blockIndex = 0; blockIndex < before.blocks.length; blockIndex++) {
    const a = before.blocks[blockIndex]!.concepts;
    const b = after.blocks[blockIndex]!.concepts;
    let distance = 0;
    for (let index = 0; index < a.length; index++) {
      const x = a[index]!;
      const y = b[index]!;
      if (x === y) continue;
      distance += rootOf(x) === rootOf(y) ? Math.abs(driftOf(x) - driftOf(y)) / 2 : 1;
    }
    if (distance > largest) largest = distance;
  }
  return largest;
}

export function semanticallyChanged(before: DocumentModel, after: DocumentModel): boolean {
  return semanticDistance(before, after) >= 1;
}
