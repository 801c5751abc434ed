// Published agreement examples the tests check Assay against (research note "Inter-annotator agreement").

/** Fleiss (1971), as worked on Wikipedia: 10 items × 14 raters, counts per category (5): κ = 0.2099307. */
export const FLEISS_1971_COUNTS: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

/** Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 observers × 12 units, "." missing. */
export const KRIPPENDORFF_2011_CODERS: Readonly<Record<string, string>> = {
  A: "1 2 3 3 2 1 4 1 2 . . .",
  B: "1 2 3 3 2 2 4 1 2 5 . 3",
  C: ". 3 3 3 2 3 4 2 2 5 1 .",
  D: "1 2 3 3 2 4 4 1 2 5 1 .",
};

/** Wikipedia's "Krippendorff's alpha" example: 3 coders × 15 units. */
export const WIKIPEDIA_ALPHA_CODERS: Readonly<Record<string, string>> = {
  c1: ". . . . . 3 4 1 2 1 1 3 3 . 3",
  c2: "1 . 2 1 3 3 4 3 . . . . . . .",
  c3: ". . 2 1 3 4 4 . 2 1 1 3 3 . 4",
};
