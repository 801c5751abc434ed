import { AGENT_USAGE } from "./agentArgs";
import { DEEPEVAL_USAGE } from "./deepEvalArgs";

/** `npm run eval`'s help: every option, as --help prints it and a usage error ends with it (evalArgs.ts parses them). */
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
