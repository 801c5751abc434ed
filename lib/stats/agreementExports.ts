// Agreement with human labels: κ and its interval, score agreement, the paired test between runs.
export {
  cohensKappa,
  summarizeAgreement,
  KAPPA_INTERVAL_METHOD,
  type ConfusionCounts,
  type KappaResult,
  type AgreementSummary,
} from "./agreement";
export {
  averageRanks,
  spearmanCorrelation,
  meanAbsoluteDifference,
  summarizeScoreAgreement,
  type ScorePair,
  type SpearmanResult,
  type ScoreAgreement,
} from "./agreementScores";
export { pairedAgreementTest, type PairedAgreementCounts, type PairedAgreementTest } from "./agreementPaired";
// Agreement between several people, and the judge held to it.
export {
  ALPHA_LEVELS,
  krippendorffAlpha,
  type AlphaLevel,
  type AlphaResult,
  type CodedUnit,
  type LabelValue,
} from "./krippendorffAlpha";
export { fleissKappa, type FleissResult } from "./fleissKappa";
export { krippendorffBootstrap, unitsBootstrap, type AlphaInterval } from "./alphaBootstrap";
export { peopleAgreement, type LabelPattern, type LabellerPair, type PeopleAgreement } from "./peopleAgreement";
export { alternativeAnnotatorTest, type AltTestResult, type AltTestScoring, type JudgedPattern } from "./altTest";
