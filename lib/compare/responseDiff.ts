/** A run of text on one side of a diff: `changed` when the other side does not have it there. */
export type DiffSegment = { text: string; changed: boolean };

export type ResponseDiff =
  | { marked: true; baseline: DiffSegment[]; candidate: DiffSegment[]; changedWords: number }
  /** Too long to mark word by word within the page's budget: shown whole, unmarked. */
  | { marked: false; reason: string };

/** Words (with the whitespace after them) per side beyond which the table of the longest common subsequence is not built. */
export const MAX_DIFF_WORDS = 2000;

/**
 * The two responses' differences, word by word: the longest common subsequence of their words (whitespace kept
 * with the word before it), everything outside it marked on its side. Deterministic and exact on what it marks;
 * for two responses over MAX_DIFF_WORDS words each it marks nothing and says so, rather than stall the page.
 */
export function diffResponses(baseline: string, candidate: string): ResponseDiff {
  const a = words(baseline);
  const b = words(candidate);
  if (a.length > MAX_DIFF_WORDS || b.length > MAX_DIFF_WORDS)
    return { marked: false, reason: `responses over ${MAX_DIFF_WORDS.toLocaleString("en-US")} words are not marked` };
  // Common prefix and suffix first: most pairs of versions share long runs, and the table shrinks to the middle.
  let start = 0;
  while (start < a.length && start < b.length && same(a[start], b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && same(a[endA - 1], b[endB - 1])) {
    endA--;
    endB--;
  }
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  const keepA = new Array<boolean>(middleA.length).fill(false);
  const keepB = new Array<boolean>(middleB.length).fill(false);
  const n = middleA.length;
  const m = middleB.length;
  const table = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i * (m + 1) + j] = same(middleA[i], middleB[j])
        ? table[(i + 1) * (m + 1) + j + 1] + 1
        : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1]);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (same(middleA[i], middleB[j])) {
      keepA[i++] = true;
      keepB[j++] = true;
    } else if (table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1]) i++;
    else j++;
  }
  const side = (all: string[], keep: boolean[]) =>
    segments([
      ...all.slice(0, start).map((text) => ({ text, changed: false })),
      ...keep.map((kept, i) => ({ text: all[start + i], changed: !kept })),
      ...all.slice(start + keep.length).map((text) => ({ text, changed: false })),
    ]);
  return {
    marked: true,
    baseline: side(a, keepA),
    candidate: side(b, keepB),
    changedWords: keepA.filter((kept) => !kept).length + keepB.filter((kept) => !kept).length,
  };
}

/** Words with the whitespace that follows them; leading whitespace is a token of its own. */
function words(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** Two words are the same when they differ at most in the whitespace after them (a re-wrapped line is no change). */
function same(a: string, b: string): boolean {
  return a.trimEnd() === b.trimEnd();
}

/** Adjacent tokens of the same kind merged into one segment. */
function segments(tokens: DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  for (const token of tokens) {
    const last = out[out.length - 1];
    if (last && last.changed === token.changed) last.text += token.text;
    else out.push({ ...token });
  }
  return out;
}
