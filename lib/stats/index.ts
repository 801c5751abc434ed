// Public surface of the stats library: pure functions, no I/O, seeded randomness.
export { wilsonInterval } from "./wilson";
export { exactMcNemar } from "./mcnemar";
export { mcNemarExactInterval } from "./mcNemarInterval";
export { adjustPValues, correctionName, CORRECTIONS, DEFAULT_CORRECTION, type Correction } from "./multipleComparisons";
export {
  pairedBootstrapMeanDiff,
  percentileBootstrapP,
  startPairedBootstrap,
  type BootstrapOptions,
  type MeanDiffInterval,
  type SteppedBootstrap,
} from "./bootstrap";
export {
  adjustedClause,
  DEFAULT_ALPHA,
  describeDelta,
  formatLevel,
  formatP,
  intervalVerdict,
  NO_CHANGE,
  verdictLabel,
  type Adjustment,
  type DeltaInput,
  type Verdict,
} from "./significance";
export { twoSidedNormalP } from "./specialFunctions";
export { mulberry32 } from "./prng";
export { normalQuantile, twoSidedZ } from "./normal";
export * from "./agreementExports";
export { pairedNormalMeanDiff, pairedDifferenceSums, type PairedDifferenceSums } from "./pairedNormal";
