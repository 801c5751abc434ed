/**
 * The Porter stemmer as NLTK 3.8's PorterStemmer() runs it by default
 * (mode NLTK_EXTENSIONS: the original algorithm plus NLTK's irregular forms
 * and its step 1a/1b/1c/2 refinements), so METEOR's stem stage matches
 * NLTK's meteor_score. Rules are data, applied as NLTK applies them: the
 * first rule whose suffix matches decides, whether or not its condition holds.
 */
type Rule = [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

const IRREGULAR = new Map<string, string>(
  Object.entries({
    sky: "sky",
    skies: "sky",
    dying: "die",
    lying: "lie",
    tying: "tie",
    news: "news",
    innings: "inning",
    inning: "inning",
    outings: "outing",
    outing: "outing",
    cannings: "canning",
    canning: "canning",
    howe: "howe",
    proceed: "proceed",
    exceed: "exceed",
    succeed: "succeed",
  }),
);

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

function isConsonant(word: string, i: number): boolean {
  if (VOWELS.has(word[i])) return false;
  if (word[i] === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

function measure(stem: string): number {
  let sequence = "";
  for (let i = 0; i < stem.length; i++) sequence += isConsonant(stem, i) ? "c" : "v";
  return sequence.split("vc").length - 1;
}

const positiveMeasure = (stem: string) => measure(stem) > 0;
const measureAboveOne = (stem: string) => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);
}

function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !["w", "x", "y"].includes(word[n - 1])) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

function applyRules(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d" && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (suffix !== "*d" && word.endsWith(suffix)) {
      const stem = suffix === "" ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return word.slice(0, -3) + "ie";
  return applyRules(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.slice(0, -3) + (word.length === 4 ? "ie" : "i");
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + "ee" : word;
  }
  let intermediate: string | null = null;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix) && containsVowel(word.slice(0, -suffix.length))) {
      intermediate = word.slice(0, -suffix.length);
      break;
    }
  }
  if (intermediate === null) return word;
  const last = intermediate.at(-1) ?? "";
  return applyRules(intermediate, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => !["l", "s", "z"].includes(last)],
    ["", "e", (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith("alli") && positiveMeasure(word.slice(0, -4))) return step2(word.slice(0, -4) + "al");
  const rules: Rule[] = [
    ["ational", "ate", positiveMeasure],
    ["tional", "tion", positiveMeasure],
    ["enci", "ence", positiveMeasure],
    ["anci", "ance", positiveMeasure],
    ["izer", "ize", positiveMeasure],
    ["bli", "ble", positiveMeasure],
    ["alli", "al", positiveMeasure],
    ["entli", "ent", positiveMeasure],
    ["eli", "e", positiveMeasure],
    ["ousli", "ous", positiveMeasure],
    ["ization", "ize", positiveMeasure],
    ["ation", "ate", positiveMeasure],
    ["ator", "ate", positiveMeasure],
    ["alism", "al", positiveMeasure],
    ["iveness", "ive", positiveMeasure],
    ["fulness", "ful", positiveMeasure],
    ["ousness", "ous", positiveMeasure],
    ["aliti", "al", positiveMeasure],
    ["iviti", "ive", positiveMeasure],
    ["biliti", "ble", positiveMeasure],
    ["fulli", "ful", positiveMeasure],
    ["logi", "log", () => positiveMeasure(word.slice(0, -3))],
  ];
  return applyRules(word, rules);
}

function step3(word: string): string {
  return applyRules(word, [
    ["icate", "ic", positiveMeasure],
    ["ative", "", positiveMeasure],
    ["alize", "al", positiveMeasure],
    ["iciti", "ic", positiveMeasure],
    ["ical", "ic", positiveMeasure],
    ["ful", "", positiveMeasure],
    ["ness", "", positiveMeasure],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ["al", "", measureAboveOne],
    ["ance", "", measureAboveOne],
    ["ence", "", measureAboveOne],
    ["er", "", measureAboveOne],
    ["ic", "", measureAboveOne],
    ["able", "", measureAboveOne],
    ["ible", "", measureAboveOne],
    ["ant", "", measureAboveOne],
    ["ement", "", measureAboveOne],
    ["ment", "", measureAboveOne],
    ["ent", "", measureAboveOne],
    ["ion", "", (stem) => measure(stem) > 1 && ["s", "t"].includes(stem.at(-1) ?? "")],
    ["ou", "", measureAboveOne],
    ["ism", "", measureAboveOne],
    ["ate", "", measureAboveOne],
    ["iti", "", measureAboveOne],
    ["ous", "", measureAboveOne],
    ["ive", "", measureAboveOne],
    ["ize", "", measureAboveOne],
  ]);
}

function step5a(word: string): string {
  if (!word.endsWith("e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

function step5b(word: string): string {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return lower;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(lower))))))));
}
