/** Character edit distance (insertions, deletions, substitutions, each cost 1), in O(min(a, b)) memory. */
export function levenshteinDistance(a: string, b: string): number {
  const [long, short] = a.length >= b.length ? [Array.from(a), Array.from(b)] : [Array.from(b), Array.from(a)];
  let previous = Array.from({ length: short.length + 1 }, (_, j) => j);
  for (let i = 1; i <= long.length; i++) {
    const current = [i];
    for (let j = 1; j <= short.length; j++) {
      const substitution = previous[j - 1] + (long[i - 1] === short[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[short.length];
}

/**
 * Normalised edit similarity: 1 − distance / length of the longer text (in
 * code points), so 1 is identical and 0 shares nothing; two empty texts are
 * identical. Compared as written: case and spacing count, as they do in the
 * character-exact tasks (spelling, formatting) DeepEval's survey names this scorer for.
 */
export function levenshteinSimilarity(a: string, b: string): { score: number; distance: number; length: number } {
  const distance = levenshteinDistance(a, b);
  const length = Math.max(Array.from(a).length, Array.from(b).length);
  return { score: length === 0 ? 1 : 1 - distance / length, distance, length };
}
