/**
 * The statistical scorers' tokeniser: lower-cased runs of letters and digits,
 * everything else a separator. The reference values in
 * tests/metrics/statisticalScorers.test.ts were computed by NLTK on exactly
 * these tokens, so a change here changes every score and must update them.
 */
export function statisticalTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** n-grams of a token list, joined with a separator no token contains, with their counts. */
export function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const gram = tokens.slice(i, i + n).join(" ");
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}
