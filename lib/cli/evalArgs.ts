import { parseArgs } from "node:util";
import { CORRECTIONS, DEFAULT_CORRECTION, type Correction } from "@/lib/stats/multipleComparisons";
import { MAX_RUN_CONCURRENCY, MAX_TRIALS, MIN_TRIALS, TRIALS_RULE } from "@/lib/contract/runLimits";
import { modelNameProblem } from "@/lib/llm/modelName";
import { describeKnownMetrics, expandMetricName, resolveMetricName } from "@/lib/metrics/metricNames";
import type { GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { parseContextRelevanceOption } from "./contextRelevanceArgs";
import { parseGEvalOption } from "./gEvalArgs";
import { readCustomJudgesFile, readGEvalFile, type CustomJudgeInput } from "./judgeFiles";
import { DEEPEVAL_OPTIONS, parseDeepEvalFlags } from "./deepEvalArgs";
import { EVAL_USAGE } from "./evalUsage";
import { AGENT_OPTIONS, parseGuidelines, parseToolCallFlags } from "./agentArgs";
import type { ConversationSettings } from "@/lib/contract/conversationSettings";
import type { ToolCallSettingsInput } from "@/lib/contract/toolCallSettings";
import type { DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";
import { BLEU_TYPES, type BleuType, ROUGE_TYPES, type RougeType } from "@/lib/contract/statisticalSettings";
import { parsePairwiseFlags, withPairwiseDefault, type GatePairwise } from "./pairwiseArgs";
import { parseBaselineSpec, type BaselineSpec } from "./regressionGate";

export class UsageError extends Error {}

export { EVAL_USAGE };

export type EvalArgs = {
  dataset?: string;
  /** --dataset-name: the uploaded dataset's name (the file's name otherwise). */
  datasetName?: string;
  datasetId?: string;
  resume?: string;
  metrics: string[];
  judgeModel?: string;
  concurrency: number;
  /** --trials: each row judged this many times. */
  trials: number;
  chunkMode: "batched" | "per_chunk";
  thresholds: Record<string, number>;
  generateModel?: string;
  systemPrompt?: string;
  name?: string;
  tags: string[];
  out?: string;
  quiet: boolean;
  contextRelevance: Record<string, number>;
  /** --rouge-type: which ROUGE type is rouge's score; undefined for the default. */
  rougeType?: RougeType;
  /** --bleu-type: which BLEU is bleu's score; undefined for the default. */
  bleuType?: BleuType;
  /** Custom G-Eval judges (--g-eval), validated like the run form's. */
  gEvalJudges: GEvalDefinition[];
  /** Custom judges (--custom-judges FILE). */
  customJudges: CustomJudgeInput[];
  /** --align: the judge to align after the run, with its guidance and output file. */
  align?: { judge: string; guidance?: string; out?: string };
  /** --labels: a label file imported once the run is stored. */
  labels?: string;
  /** DeepEval's options (--strict-mode, --list-cap, …); undefined when none is given. */
  deepEval?: DeepEvalSettingsInput;
  /** --tool-ordering, --tool-params, --tool-exact-match. */
  toolCalls?: ToolCallSettingsInput;
  /** --guideline: MLflow's conversational guidelines. */
  conversation?: ConversationSettings;
  /** A team's server to run on (--server), or undefined to run here. */
  server?: string;
  /** Only the limits given on the command line (a resume changes only those). */
  budget: { calls?: number; tokens?: number; usd?: number };
  /** The regression gate (--baseline, --alpha, --correction, --summary-md); only with --server. */
  gate?: { baseline: BaselineSpec; alpha: number; correction: Correction; summaryMd?: string; pairwise?: GatePairwise };
};

export function parseEvalArgs(argv: string[]): EvalArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: withPairwiseDefault(argv),
      strict: true,
      options: {
        dataset: { type: "string" },
        "dataset-id": { type: "string" },
        resume: { type: "string" },
        judges: { type: "string" },
        "judge-model": { type: "string" },
        concurrency: { type: "string" },
        "dataset-name": { type: "string" },
        trials: { type: "string" },
        "chunk-mode": { type: "string" },
        threshold: { type: "string", multiple: true },
        "context-relevance": { type: "string", multiple: true },
        "rouge-type": { type: "string" },
        "bleu-type": { type: "string" },
        "g-eval": { type: "string", multiple: true },
        "custom-judges": { type: "string", multiple: true },
        align: { type: "string" },
        labels: { type: "string" },
        "align-guidance": { type: "string" },
        "align-out": { type: "string" },
        ...DEEPEVAL_OPTIONS,
        ...AGENT_OPTIONS,
        "generate-model": { type: "string" },
        "system-prompt": { type: "string" },
        name: { type: "string" },
        tag: { type: "string", multiple: true },
        out: { type: "string" },
        quiet: { type: "boolean" },
        "budget-calls": { type: "string" },
        "budget-tokens": { type: "string" },
        "budget-usd": { type: "string" },
        server: { type: "string" },
        baseline: { type: "string" },
        alpha: { type: "string" },
        correction: { type: "string" },
        "summary-md": { type: "string" },
        pairwise: { type: "string", multiple: true },
        "pairwise-orders": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) throw new UsageError("");
  const sources = [parsed.dataset, parsed["dataset-id"], parsed.resume].filter(Boolean).length;
  if (sources !== 1) throw new UsageError("give exactly one of --dataset, --dataset-id or --resume");

  const gEvalJudges = (parsed["g-eval"] ?? []).map((entry) => {
    const definition = entry.startsWith("@") ? readGEvalFile(entry.slice(1)) : parseGEvalOption(entry);
    return typeof definition === "string" ? fail(definition) : definition;
  });
  const customJudges = (parsed["custom-judges"] ?? []).flatMap((file) => {
    const judges = readCustomJudgesFile(file);
    return typeof judges === "string" ? fail(judges) : judges;
  });
  const duplicate = gEvalJudges.find((judge, i) => gEvalJudges.findIndex((j) => j.name === judge.name) !== i);
  if (duplicate) fail(`--g-eval: two judges are named "${duplicate.name}"; names must be unique`);
  // G-Eval or custom judges alone are a complete run; --judges then adds to them rather than defaulting to every judge.
  const judges = (parsed.judges ?? (gEvalJudges.length + customJudges.length > 0 ? "" : "all"))
    .split(",")
    .map((j) => j.trim())
    .filter(Boolean);
  const metrics = [
    ...new Set(
      judges.flatMap(
        (name) =>
          expandMetricName(name) ??
          fail(
            `unknown judge "${name}"; known: ${describeKnownMetrics()}; or a family: deepeval, mastra, statistical, agent`,
          ),
      ),
    ),
  ];
  const concurrency = Number(parsed.concurrency ?? 8);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_RUN_CONCURRENCY)
    fail(`--concurrency must be a whole number from 1 to ${MAX_RUN_CONCURRENCY}`);
  const trials = Number(parsed.trials ?? 1);
  if (!/^\d+$/.test(parsed.trials ?? "1") || trials < MIN_TRIALS || trials > MAX_TRIALS)
    fail(`--trials must be ${TRIALS_RULE}`);
  const chunkMode = parsed["chunk-mode"] ?? "batched";
  if (chunkMode !== "batched" && chunkMode !== "per_chunk") fail("--chunk-mode must be batched or per_chunk");
  const thresholds: Record<string, number> = {};
  for (const entry of parsed.threshold ?? []) {
    const match = /^([^=]+)=([0-9.]+)$/.exec(entry);
    const value = match ? Number(match[2]) : NaN;
    const metric = match ? resolveMetricName(match[1]) : null;
    // context_relevance may be scaled (Mastra's `scale`): its pass mark is checked against the scale by the run config.
    const max = metric === "retrieval/llm_judged/context_relevance" ? Infinity : 1;
    if (!match || !(value >= 0 && value <= max)) fail(`--threshold ${entry}: expected NAME=VALUE with 0 ≤ VALUE ≤ 1`);
    thresholds[
      metric ?? fail(`--threshold ${entry}: unknown judge "${match[1].trim()}"; known: ${describeKnownMetrics()}`)
    ] = value;
  }
  if (parsed.out && !/\.(json|csv)$/i.test(parsed.out)) fail("--out must end in .json or .csv");
  for (const flag of ["judge-model", "generate-model"] as const) {
    const problem = parsed[flag] === undefined ? null : modelNameProblem(parsed[flag]);
    if (problem) fail(`--${flag}: ${problem}`);
  }
  const contextRelevance: Record<string, number> = {};
  for (const entry of parsed["context-relevance"] ?? []) {
    const option = parseContextRelevanceOption(entry);
    if (typeof option === "string") fail(option);
    contextRelevance[option.key] = option.value;
  }
  const budget: EvalArgs["budget"] = {};
  if (parsed["budget-calls"] !== undefined) budget.calls = wholeNumber("--budget-calls", parsed["budget-calls"]);
  if (parsed["budget-tokens"] !== undefined) budget.tokens = wholeNumber("--budget-tokens", parsed["budget-tokens"]);
  if (parsed["budget-usd"] !== undefined) {
    const usd = Number(parsed["budget-usd"]);
    if (!/^\d+(\.\d+)?$/.test(parsed["budget-usd"]) || !(usd > 0))
      fail("--budget-usd must be a positive amount, e.g. 2.50");
    budget.usd = usd;
  }
  if (parsed.server !== undefined && !/^https?:\/\/[^\s/]+/i.test(parsed.server))
    fail("--server must be the server's URL, e.g. https://assay.example.com");
  return {
    gate: parseGate(parsed),
    server: parsed.server,
    dataset: parsed.dataset,
    ...datasetNameOf(parsed),
    datasetId: parsed["dataset-id"],
    resume: parsed.resume,
    metrics,
    judgeModel: parsed["judge-model"],
    concurrency,
    trials,
    chunkMode: chunkMode as EvalArgs["chunkMode"],
    thresholds,
    generateModel: parsed["generate-model"],
    systemPrompt: parsed["system-prompt"],
    name: parsed.name,
    tags: parsed.tag ?? [],
    out: parsed.out,
    quiet: parsed.quiet ?? false,
    contextRelevance,
    rougeType: parseRougeType(parsed["rouge-type"]),
    bleuType: parseBleuType(parsed["bleu-type"]),
    gEvalJudges,
    customJudges,
    ...(parsed.labels !== undefined ? { labels: parsed.labels } : {}),
    ...alignOf(parsed),
    ...deepEvalSettingsOf(parsed),
    ...agentSettingsOf(parsed),
    budget,
  };
}

function datasetNameOf(parsed: { dataset?: string; "dataset-name"?: string }): Pick<EvalArgs, "datasetName"> {
  const name = parsed["dataset-name"]?.trim();
  if (parsed["dataset-name"] === undefined) return {};
  if (!parsed.dataset) fail("--dataset-name names the file --dataset uploads: give --dataset too");
  if (!name || name.length > 200) fail("--dataset-name must be 1 to 200 characters");
  return { datasetName: name };
}

function agentSettingsOf(flags: Parameters<typeof parseToolCallFlags>[0] & { guideline?: string[] }) {
  const parsed = parseToolCallFlags(flags);
  if ("problem" in parsed) return fail(parsed.problem);
  const conversation = parseGuidelines(flags);
  return { ...(parsed.settings ? { toolCalls: parsed.settings } : {}), ...(conversation ? { conversation } : {}) };
}

function deepEvalSettingsOf(flags: Parameters<typeof parseDeepEvalFlags>[0]): Pick<EvalArgs, "deepEval"> {
  const parsed = parseDeepEvalFlags(flags);
  if ("problem" in parsed) fail(parsed.problem);
  return parsed.settings ? { deepEval: parsed.settings } : {};
}

function alignOf(parsed: { align?: string; "align-guidance"?: string; "align-out"?: string }): Pick<EvalArgs, "align"> {
  if (parsed.align === undefined) {
    if (parsed["align-guidance"] !== undefined || parsed["align-out"] !== undefined)
      fail("--align-guidance and --align-out belong to --align: give --align too");
    return {};
  }
  if (parsed["align-out"] !== undefined && !/\.json$/i.test(parsed["align-out"])) fail("--align-out must end in .json");
  if ((parsed["align-guidance"]?.length ?? 0) > 2000) fail("--align-guidance: at most 2,000 characters");
  return {
    align: {
      judge: parsed.align.trim(),
      ...(parsed["align-guidance"] ? { guidance: parsed["align-guidance"] } : {}),
      ...(parsed["align-out"] ? { out: parsed["align-out"] } : {}),
    },
  };
}

function parseGate(parsed: {
  pairwise?: string[];
  "pairwise-orders"?: string;
  server?: string;
  baseline?: string;
  alpha?: string;
  correction?: string;
  "summary-md"?: string;
}): EvalArgs["gate"] {
  const pairwise = parsePairwiseFlags(parsed.pairwise, parsed["pairwise-orders"]);
  if (typeof pairwise === "string") fail(pairwise);
  if (parsed.baseline === undefined) {
    if (
      parsed.alpha !== undefined ||
      parsed.correction !== undefined ||
      parsed["summary-md"] !== undefined ||
      pairwise !== undefined
    )
      fail("--alpha, --correction, --summary-md and --pairwise belong to the regression gate: give --baseline too");
    return undefined;
  }
  if (parsed.server === undefined) fail("--baseline compares runs on a team's server: give --server too");
  const baseline = parseBaselineSpec(parsed.baseline) ?? fail("--baseline must be a run id or latest:TAG=VALUE");
  const alpha = Number(parsed.alpha ?? 0.05);
  if (!(alpha > 0 && alpha < 0.5)) fail("--alpha must be a level between 0 and 0.5, e.g. 0.05");
  const correction = parsed.correction ?? DEFAULT_CORRECTION;
  if (!isCorrection(correction)) fail(`--correction must be one of ${CORRECTIONS.join(", ")}, got "${correction}"`);
  return { baseline, alpha, correction, summaryMd: parsed["summary-md"], ...(pairwise ? { pairwise } : {}) };
}

function isCorrection(text: string): text is Correction {
  return (CORRECTIONS as readonly string[]).includes(text);
}

function parseRougeType(text: string | undefined): RougeType | undefined {
  if (text === undefined) return undefined;
  const type = ROUGE_TYPES.find((name) => name.toLowerCase() === text.trim().toLowerCase());
  return type ?? fail(`--rouge-type must be one of ${ROUGE_TYPES.join(", ")}`);
}

function parseBleuType(text: string | undefined): BleuType | undefined {
  if (text === undefined) return undefined;
  const type = BLEU_TYPES.find((name) => name === text.trim().toLowerCase());
  return type ?? fail(`--bleu-type must be one of ${BLEU_TYPES.join(", ")}`);
}

function wholeNumber(flag: string, raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1)
    fail(`${flag} must be a whole number of at least 1`);
  return value;
}

function fail(message: string): never {
  throw new UsageError(message);
}
