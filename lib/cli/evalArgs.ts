import { parseArgs } from "node:util";
import { CORRECTIONS, DEFAULT_CORRECTION, type Correction } from "@/lib/stats/multipleComparisons";
import { MAX_RUN_CONCURRENCY, MAX_TRIALS, MIN_TRIALS, TRIALS_RULE } from "@/lib/contract/runLimits";
import { modelNameProblem } from "@/lib/llm/modelName";
import { describeKnownMetrics, expandMetricName, resolveMetricName } from "@/lib/metrics/metricNames";
import type { GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { parseContextRelevanceOption } from "./contextRelevanceArgs";
import { parseGEvalOption } from "./gEvalArgs";
import { readCustomJudgesFile, readGEvalFile, type CustomJudgeInput } from "./judgeFiles";
import { DEEPEVAL_OPTIONS, DEEPEVAL_USAGE, parseDeepEvalFlags } from "./deepEvalArgs";
import { AGENT_OPTIONS, AGENT_USAGE, parseGuidelines, parseToolCallFlags } from "./agentArgs";
import type { ConversationSettings } from "@/lib/contract/conversationSettings";
import type { ToolCallSettingsInput } from "@/lib/contract/toolCallSettings";
import type { DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";
import { BLEU_TYPES, type BleuType, ROUGE_TYPES, type RougeType } from "@/lib/contract/statisticalSettings";
import { parsePairwiseFlags, withPairwiseDefault, type GatePairwise } from "./pairwiseArgs";
import { parseBaselineSpec, type BaselineSpec } from "./regressionGate";

export class UsageError extends Error {}

export const EVAL_USAGE = `Usage: npm run eval -- --dataset <file.csv|json|jsonl> [options]
       npm run eval -- --resume <run-id>

  --dataset FILE          evaluation set to upload and evaluate
  --dataset-id ID         evaluate a dataset already in the database instead
  --dataset-name NAME     the uploaded dataset's name (default: the file's name); a CI build names its own,
                          e.g. "ci \$GITHUB_REF_NAME \$GITHUB_SHA", so each build's upload is told apart
  --judges LIST           comma-separated Agent Evaluation judges (correctness, groundedness,
                          chunk_relevance, relevance_to_query, safety, context_sufficiency,
                          document_recall, total_token_count, latency_seconds, …), their full names
                          (response/llm_judged/correctness), Agent Evaluation's aliases (agent/input_token_count,
                          agent/output_token_count, retrieval/llm_judged/chunk_relevance_precision),
                          "all" (default: every Databricks judge and metric);
                          DeepEval metrics (faithfulness, answer_relevancy, contextual_precision,
                          contextual_recall, contextual_relevancy, hallucination, toxicity, bias,
                          summarization), Mastra's context_relevance, statistical scorers (bleu, rouge,
                          meteor, levenshtein), agent tool-call metrics (tool_call_exact_match,
                          tool_correctness, no_tool_loops, tool_call_count), or a whole family:
                          deepeval, mastra, statistical, agent
  --g-eval DEFINITION     a custom G-Eval judge, as in the run form, named response/llm_judged/g_eval/<name>:
                          'name=coherence;criteria=The response is well structured;params=input,actual_output;threshold=0.5'
                          name: lower-case letters, digits, _; params: input, actual_output, expected_output,
                          retrieval_context, context; threshold on the 0–1 score (default 0.5), a pass mark
                          that sets the exit code as --threshold does; needs an LLM judge; repeatable (names
                          unique; with only --g-eval, --judges defaults to none); @FILE reads a definition
                          from a JSON file, as --align writes one
  --custom-judges FILE    custom judges from a JSON file: one or a list of {assessmentName, assessmentType
                          (ANSWER or RETRIEVAL), instructions}, named response/ or retrieval/llm_judged/<name>;
                          an aligned judge's file from --align too; with only these, --judges defaults to none
  --labels FILE           human labels to import into the dataset once the run is stored (request_id, metric,
                          chunk_position, label: CSV, JSON or JSON Lines, as a label export writes them),
                          the run's own custom and G-Eval judges included; all or nothing
  --align JUDGE           after the run, align this judge (a built-in yes/no judge, a custom or a G-Eval
                          judge of the run) with the dataset's human labels: split them into training and
                          held-out parts, show training rows as worked examples, measure the new version on
                          the held-out rows, print both versions' agreement and the paired test, and write
                          the new judge's definition to --align-out (default <judge>_aligned_v<N>.json)
  --align-guidance TEXT   guidance added to the aligned judge's instructions (optional)
  --align-out FILE        where --align writes the aligned judge (for --custom-judges or --g-eval @FILE);
                          with --server the judge is aligned on the server and followed from here
  --judge-model NAME      judge model (default ASSAY_JUDGE_MODEL or gpt-4.1-mini); "heuristic" for the offline judge
  --concurrency N         LLM calls in flight at most (default 8)
  --trials N              judge each row N times, 1 to 10 (default 1); with --generate-model each trial is a
                          fresh response; trials after the first carry seed N and their own judge-cache entries;
                          the run then reports pass@k, pass^k and how often the judge agrees with itself, and
                          --baseline tests each row's mean over its trials
  --chunk-mode MODE       batched (default: one call per row) or per_chunk (one call per chunk)
  --threshold NAME=X      the metric's pass mark for this run (score metrics: a row succeeds when its
                          score is ≥ X, ≤ X for hallucination, toxicity, bias; default 0.5), and
                          fail (exit 1) when the metric's aggregate is below X (above, where lower
                          is better); repeatable
  --bleu-type TYPE        which BLEU is bleu's score: cumulative4 (default: smoothed BLEU-4) or DeepEval's
                          bleu1, bleu2, bleu3, bleu4 (one n-gram order each, word_tokenize tokens, unsmoothed)
  --rouge-type TYPE       which ROUGE F-measure is rouge's score: rouge1, rouge2, rougeL (default) or rougeLsum
                          (Porter-stemmed tokens, as Google's rouge_score and DeepEval compute them)
${DEEPEVAL_USAGE}
${AGENT_USAGE}
  --context-relevance K=V context_relevance settings (Mastra's names): unusedHighRelevanceContext,
                          missingContextPerItem, maxMissingContextPenalty, scale; repeatable
  --generate-model NAME   generate responses with this chat model, then judge them
  --system-prompt TEXT    system prompt for --generate-model
  --name TEXT             run name; --tag TEXT (repeatable)
  --out FILE              write results: .json, or .csv (with Agent Evaluation's column names)
  --resume RUN_ID         continue an interrupted, paused or failed run
  --budget-calls N        pause the run once it has made N LLM calls (with --resume: raise or set it)
  --budget-tokens N       pause the run once it has used N tokens
  --budget-usd X          pause the run once it has cost X US dollars (refused without a price for
                          the judge model in ASSAY_LLM_PRICES)
  --quiet                 no progress bar
  --server URL            run on a team's Assay server instead of this machine: the dataset is uploaded
                          there (or named with --dataset-id), judged by the server with its LLM key, and
                          --out and the thresholds come from its results; the API key is read from
                          ASSAY_TOKEN (made on the server's API keys page or with npm run user:key)
  --baseline RUN          with --server, the regression gate: compare this run with RUN on the rows both
                          judged (paired by request_id across two uploads of the same requests) and exit 1
                          only on a real regression by the paired test (exact McNemar for yes/no, paired
                          bootstrap for scores) that survives the correction for the metrics compared;
                          latest:TAG=VALUE takes the newest completed run with that tag (--baseline
                          latest:branch=main); no such run yet: nothing to compare, exit 0
  --alpha X               the gate's level (default 0.05): a change is real when its (adjusted) p < X; with
                          --correction none that is when its (1 − X) interval excludes 0, the same rule
  --correction C          how the metrics compared are read together: holm (default: the chance of any false
                          regression stays under --alpha), bh (Benjamini–Hochberg: false discovery rate,
                          for exploring many metrics) or none (each metric on its own, as before)
  --summary-md FILE       write the gate's Markdown summary there (and to $GITHUB_STEP_SUMMARY when set)
  --pairwise [CRITERION]  with --baseline, also judge this run's responses against the baseline's pair by pair
                          (which answers the request better, or tie), in both orders, and fail the gate when
                          the baseline wins significantly more pairs (exact sign test, in the same correction);
                          CRITERION: overall (the default) or NAME=INSTRUCTIONS; repeat for several
  --pairwise-orders O     both (default: each pair judged with either answer first, a disagreement a tie) or
                          one (half the calls, an order drawn per row; position bias averaged, not caught)`;

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
