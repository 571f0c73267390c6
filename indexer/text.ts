/**
 * Generated resource content: structured text made of blocks (paragraphs), each a run of concept words
 * mixed with filler words, rendered with a layout. The structure (DocumentModel) is what the simulator
 * keeps as ground truth; the indexer only ever sees the rendered text. A concept word may carry a drift
 * suffix (`kalo-2` is `kalo` drifted twice), which the fake embedding turns into a nearby vector.
 */
export interface BlockModel {
  concepts: string[];
  filler: string[];
}

export interface DocumentModel {
  blocks: BlockModel[];
  /** Layout variant 0..3: line wrapping and spacing only (never changes the words). */
  layout: number;
}

const syllables = ['ka', 'lo', 'mi', 're', 'tu', 'sen', 'dor', 'vi', 'pa', 'nek', 'zu', 'bri', 'fa', 'gol', 'hes', 'jun'];
/** 256 concept words: two syllables each. */
export const conceptWords: readonly string[] = syllables.flatMap((first) => syllables.map((second) => first + second + 'x'));
export const fillerWords: readonly string[] = [
  'the', 'a', 'of', 'and', 'is', 'to', 'in', 'that', 'with', 'for', 'as', 'on', 'by', 'this', 'it', 'be',
  'are', 'from', 'or', 'an', 'which', 'at', 'also', 'then', 'so', 'very', 'quite', 'here', 'there', 'now',
];

export const conceptsPerBlock = 3;
export const fillerPerBlock = 7;

/** Words of a block in reading order: filler interleaved between concepts. */
export function blockWords(block: BlockModel): string[] {
  const words: string[] = [];
  const total = block.concepts.length + block.filler.length;
  let concept = 0;
  let filler = 0;
  for (let index = 0; index < total; index++) {
    const takeConcept = concept < block.concepts.length && (index % 2 === 1 || filler >= block.filler.length);
    words.push(takeConcept ? block.concepts[concept++]! : block.filler[filler++]!);
  }
  return words;
}

/** The rendered text. Blocks are separated by a blank line (the natural chunk boundary). */
export function renderDocument(model: DocumentModel): string {
  return model.blocks.map((block) => renderBlock(blockWords(block), model.layout)).join('\n\n') + '\n';
}

function renderBlock(words: string[], layout: number): string {
  const wrap = layout === 0 ? 0 : 3 + layout * 2;
  const spacer = layout % 2 === 1 ? '  ' : ' ';
  let text = '';
  for (let index = 0; index < words.length; index++) {
    if (index > 0) text += wrap > 0 && index % wrap === 0 ? '\n' : spacer;
    text += words[index];
  }
  return text + '.';
}

/** The tokens the fake embedding reads: lower-case words, drift suffixes kept. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9-]+/).filter((token) => token.length > 0);
}

/** Natural chunk boundaries: blank-line separated paragraphs, each trimmed. */
export function splitChunks(text: string): string[] {
  const chunks: string[] = [];
  for (const part of text.split(/\n\s*\n/)) {
    const trimmed = part.trim();
    if (trimmed.length > 0) chunks.push(trimmed);
  }
  return chunks;
}
