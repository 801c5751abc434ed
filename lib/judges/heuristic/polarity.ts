import { contentWords, stem, tokenize } from "./text";

/**
 * Rules about language, not about any dataset, for the offline judge's comparisons of a claim with the
 * sentence that matches it: does one negate what the other states, or swap a relation for its opposite?
 * Word overlap alone cannot see either: "is not the capital" shares every content word with "is the capital".
 */

/** Words that negate what follows (tokens as tokenize() gives them: "doesn't" → "doesnt"). English, Spanish, German. */
const NEGATORS = new Set(
  `not no never none nobody nothing neither nor cannot cant without isnt arent wasnt werent doesnt dont didnt
   wont wouldnt shouldnt couldnt hasnt havent hadnt aint mustnt neednt nowhere nunca jamás ningún ninguna ninguno
   sin nicht kein keine keinen keiner keinem keines nie niemals ohne`.split(/\s+/),
);

/** Phrases that contain a negator but negate nothing ("not only", "no more than 5"): their tokens are skipped. */
const NOT_NEGATING = [
  ["not", "only"],
  ["not", "just"],
  ["not", "to", "mention"],
  ["no", "doubt"],
  ["no", "matter"],
  ["nothing", "but"],
  ["whether", "or", "not"],
  ["if", "not"],
  ["no", "more", "than"],
  ["no", "less", "than"],
  ["no", "fewer", "than"],
  ["no", "later", "than"],
  ["no", "earlier", "than"],
  ["not", "more", "than"],
  ["not", "less", "than"],
  ["never", "mind"],
];

/** An answer that opens with yes or no is compared by that word elsewhere (answerPolarity); it is not a negation here. */
const LEADING_ANSWER = new Set(["yes", "no", "yeah", "nope", "sí", "ja", "nein"]);

/** How far a negator reaches: the next few tokens ("is not the capital", "did not win the cup"). */
const SCOPE_TOKENS = 4;

export type Polarity = { negations: number; scope: Set<string> };

/**
 * The negations of a text and the content words within their reach: the next few words, never past a
 * comma or other punctuation ("without downtime, create a key" negates the downtime, not the key).
 */
export function polarity(text: string): Polarity {
  let negations = 0;
  const scope = new Set<string>();
  const segments = text.split(/[,;:.!?()]+/);
  const answerFirst = tokenize(text).length > 1 && LEADING_ANSWER.has(tokenize(text)[0] ?? "");
  segments.forEach((segment, at) => {
    const tokens = tokenize(segment);
    const skip = new Set<number>();
    if (at === 0 && answerFirst) skip.add(0);
    for (let i = 0; i < tokens.length; i++)
      for (const phrase of NOT_NEGATING)
        if (phrase.every((word, k) => tokens[i + k] === word)) phrase.forEach((_, k) => skip.add(i + k));
    tokens.forEach((token, i) => {
      if (skip.has(i) || !NEGATORS.has(token)) return;
      negations += 1;
      for (const word of tokens.slice(i + 1, i + 1 + SCOPE_TOKENS)) for (const w of contentWords(word)) scope.add(w);
    });
  });
  return { negations, scope };
}

/**
 * Whether `a` and `b` differ in polarity about what they share: one negates and the other does not,
 * and a content word of both is within the negation's reach. A negation of something the other does not
 * mention is no conflict. Negations are not counted against each other ("no one, not even the root user"
 * is one denial, not two that cancel).
 */
export function negates(a: string, b: string): boolean {
  const pa = polarity(a);
  const pb = polarity(b);
  if (pa.negations > 0 === pb.negations > 0) return false;
  const negative = pa.negations > 0 ? pa : pb;
  const shared = [...contentWords(a)].filter((word) => contentWords(b).has(word));
  return shared.some((word) => negative.scope.has(word));
}

/**
 * Relations and their opposites: a sentence that keeps the other's words but says "before" for "after",
 * "more" for "less", "won" for "lost" states the opposite. Stemmed as the overlap is.
 */
const OPPOSITES: [string, string][] = [
  ["before", "after"],
  ["earlier", "later"],
  ["first", "last"],
  ["older", "younger"],
  ["oldest", "youngest"],
  ["more", "less"],
  ["more", "fewer"],
  ["most", "least"],
  ["larger", "smaller"],
  ["largest", "smallest"],
  ["bigger", "smaller"],
  ["biggest", "smallest"],
  ["higher", "lower"],
  ["highest", "lowest"],
  ["longer", "shorter"],
  ["longest", "shortest"],
  ["increase", "decrease"],
  ["increased", "decreased"],
  ["rise", "fall"],
  ["rose", "fell"],
  ["risen", "fallen"],
  ["gained", "lost"],
  ["above", "below"],
  ["north", "south"],
  ["northern", "southern"],
  ["east", "west"],
  ["eastern", "western"],
  ["won", "lost"],
  ["win", "lose"],
  ["maximum", "minimum"],
  ["include", "exclude"],
  ["included", "excluded"],
  ["allowed", "forbidden"],
  ["allowed", "prohibited"],
  ["always", "never"],
  ["true", "false"],
  ["same", "different"],
  ["born", "died"],
  ["birth", "death"],
  ["male", "female"],
  ["father", "mother"],
  ["son", "daughter"],
  ["husband", "wife"],
  ["brother", "sister"],
  ["inside", "outside"],
  ["import", "export"],
  ["buy", "sell"],
  ["bought", "sold"],
  ["open", "closed"],
  ["enable", "disable"],
  ["enabled", "disabled"],
  ["success", "failure"],
  ["start", "end"],
  ["started", "ended"],
  ["minor", "major"],
  ["ancient", "modern"],
  ["private", "public"],
  ["input", "output"],
  ["upper", "lower"],
];
const OPPOSITE_OF = new Map<string, Set<string>>();
for (const [a, b] of OPPOSITES) {
  const [sa, sb] = [stem(a), stem(b)];
  OPPOSITE_OF.set(sa, new Set([...(OPPOSITE_OF.get(sa) ?? []), sb]));
  OPPOSITE_OF.set(sb, new Set([...(OPPOSITE_OF.get(sb) ?? []), sa]));
}

/** The relation word of `a` that `b` replaces by its opposite ("after" → "before"), as each text spells it, or null. */
export function swappedRelation(a: string, b: string): { said: string; instead: string } | null {
  const wordsA = stemmed(a);
  const wordsB = stemmed(b);
  for (const [word, said] of wordsA) {
    if (wordsB.has(word)) continue;
    for (const opposite of OPPOSITE_OF.get(word) ?? []) {
      const instead = wordsB.get(opposite);
      if (instead !== undefined && !wordsA.has(opposite)) return { said, instead };
    }
  }
  return null;
}

/** Each stem of a text with the first word that gave it. */
function stemmed(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const token of tokenize(text)) if (!words.has(stem(token))) words.set(stem(token), token);
  return words;
}
