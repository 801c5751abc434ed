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
