/**
 * An offline, deterministic embedding for the example deployment's Store semantic search
 * (langgraph.json `store.index.embed`), so it works with no provider key. Each word (lowercased,
 * a trailing plural "s" dropped) is hashed into one of DIMS buckets, the counts are normalized
 * to unit length, and texts sharing words point the same way: crude next to a real model, but
 * the ranking it gives is meaningful and repeatable. For real embeddings set
 * `"embed": "openai:text-embedding-3-small"` (and `"dims": 1536`).
 */
export const DIMS = 256;

export async function embed(texts: string[]): Promise<number[][]> {
  return texts.map(embedText);
}

function embedText(text: string): number[] {
  const vector = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const stem = word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word;
    vector[fnv1a(stem) % DIMS]! += 1;
  }
  const length = Math.hypot(...vector);
  // An empty text still gets a unit vector, so similarity stays defined.
  return length === 0 ? vector.map((_, index) => (index === 0 ? 1 : 0)) : vector.map((value) => value / length);
}

/** 32-bit FNV-1a: small, fast and stable across platforms and Node versions. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
