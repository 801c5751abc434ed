// Public surface of the stats library: pure functions, no I/O, seeded randomness.
export { wilsonInterval } from "./wilson";
export { exactMcNemar } from "./mcnemar";
export { pairedRateDifference } from "./pairedProportions";
export {
  pairedBootstrapMeanDiff,
  startPairedBootstrap,
  type BootstrapOptions,
  type MeanDiffInterval,
  type SteppedBootstrap,
} from "./bootstrap";
export { DEFAULT_ALPHA, describeDelta, formatLevel, NO_CHANGE, type DeltaInput, type Verdict } from "./significance";
export { mulberry32 } from "./prng";
export { normalQuantile, twoSidedZ } from "./normal";
export * from "./agreementExports";
export { pairedNormalMeanDiff, pairedDifferenceSums, type PairedDifferenceSums } from "./pairedNormal";
