import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseEvalArgs } from "@/lib/cli/evalArgs";
import { checkThresholds } from "@/lib/cli/thresholdCheck";
import { createDb } from "@/lib/db/client";
import { closeDirectConnection } from "@/lib/db/store/directSqlite";
import { listRunResultsPage } from "@/lib/db/judgments/resultQueries";
import { getRun } from "@/lib/db/runs/runQueries";
import { findMetric } from "@/lib/contract/metricCatalog";
import { DEFAULT_METRICS, metricsOfFamily, resolveMetricName } from "@/lib/metrics/metricNames";
import { SAMPLE_FILE } from "../support/engineKit";
import type { Responder } from "../support/fakeOpenAIServer";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeScoreResponder } from "../support/fakeScoreResponder";
import { fencedContents } from "../support/fenced";
import { spawnEval } from "../support/spawnEval";
import { baseArgs, usageError } from "../support/evalArgsKit";
import { aggregate as aggregateWith } from "../charts/fixtures";

describe("score metrics on the command line", () => {
  it("resolves the family's short names and whole families; all stays the Databricks suite", () => {
    const args = parseEvalArgs([...baseArgs, "--judges", "bleu,context_relevance,hallucination,statistical"]);
    expect(args.metrics).toEqual([
      "response/statistical/bleu",
      "retrieval/llm_judged/context_relevance",
      "response/llm_judged/hallucination",
      "response/statistical/rouge",
      "response/statistical/meteor",
      "response/statistical/levenshtein",
    ]);
    expect(parseEvalArgs(baseArgs).metrics).toEqual(DEFAULT_METRICS);
    expect(DEFAULT_METRICS).not.toContain("response/statistical/bleu");
    expect(parseEvalArgs([...baseArgs, "--judges", "deepeval"]).metrics).toEqual(metricsOfFamily("deepeval"));
    expect(metricsOfFamily("deepeval")).toHaveLength(9);
  });

  it("takes thresholds by short or full name, and context_relevance settings by Mastra's names", () => {
    const args = parseEvalArgs([
      ...baseArgs,
      "--threshold",
      "toxicity=0.2",
      "--threshold",
      "response/statistical/rouge=0.4",
      "--threshold",
      "context_relevance=70",
      "--context-relevance",
      "scale=100",
      "--context-relevance",
      "unusedHighRelevanceContext=0.2",
    ]);
    expect(args.thresholds).toEqual({
      "response/llm_judged/toxicity": 0.2,
      "response/statistical/rouge": 0.4,
      "retrieval/llm_judged/context_relevance": 70,
    });
    expect(args.contextRelevance).toEqual({ scale: 100, unusedHighRelevanceContext: 0.2 });
    expect(usageError([...baseArgs, "--threshold", "bleu=1.5"])).toContain("expected NAME=VALUE with 0 ≤ VALUE ≤ 1");
    expect(usageError([...baseArgs, "--context-relevance", "penalty=0.2"])).toContain(
      "KEY one of unusedHighRelevanceContext, missingContextPerItem, maxMissingContextPenalty, scale",
    );
    expect(usageError([...baseArgs, "--context-relevance", "missingContextPerItem=3"])).toContain(
      "penalties are from 0 to 1",
    );
  });

  it("checks a lower-is-better aggregate against its threshold from below", () => {
    const aggregate = (metric: string, value: number) =>
      aggregateWith(metric, {
        name: `${metric}/score/average`,
        kind: "average",
        value,
        numerator: value,
        denominator: 1,
      });
    const verdicts = checkThresholds(
      [aggregate("response/llm_judged/toxicity", 0.1), aggregate("response/llm_judged/faithfulness", 0.1)],
      { toxicity: 0.2, faithfulness: 0.2 },
    );
    expect(verdicts.map((v) => [v.metric, v.passed])).toEqual([
      ["response/llm_judged/toxicity", true],
      ["response/llm_judged/faithfulness", false],
    ]);
  });
});

/** Rates every chunk high and used except the ones that share no word with the request, which are "none". */
const contextRelevanceJudge: Responder = (body) => {
  const prompt = (body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");
  const chunks = fencedContents(prompt, "chunk");
  return JSON.stringify({
    evaluations: chunks.map((_, i) => ({
      context_index: i + 1,
      reasoning: "rated",
      relevance_level: i === 0 ? "high" : "none",
      was_used: i === 0,
    })),
    missing_context: [],
    overall_assessment: "The first piece answers the request.",
  });
};

describe("npm run eval with the score metrics on the sample dataset", () => {
  let dir: string;
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-score-cli-"));
    server = await startFakeOpenAIServer({ responder: contextRelevanceJudge });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses an LLM-only score metric named for the offline judge, before importing anything", async () => {
    const dbFile = path.join(dir, "refused.db");
    const { code, stderr } = await spawnEval(
      ["--dataset", SAMPLE_FILE, "--judges", "bleu,answer_relevancy", "--judge-model", "heuristic", "--quiet"],
      { DATABASE_URL: `file:${dbFile}` },
    ).done;
    expect(code).toBe(2);
    expect(stderr).toContain(
      "answer_relevancy needs an LLM judge: the offline heuristic judge has no honest lexical rule for it",
    );
  });

  it("runs bleu, rouge, meteor, levenshtein offline and context_relevance through the fake server", async () => {
    const out = path.join(dir, "results.json");
    const { code, stdout, stderr } = await spawnEval(
      [
        "--dataset",
        SAMPLE_FILE,
        "--judges",
        "bleu,rouge,meteor,levenshtein,context_relevance",
        "--judge-model",
        "judge-model",
        "--threshold",
        "context_relevance=0.1",
        "--out",
        out,
        "--quiet",
      ],
      {
        DATABASE_URL: `file:${path.join(dir, "cli.db")}`,
        OPENAI_API_KEY: "sk-test-cli-0000",
        OPENAI_BASE_URL: server.url,
      },
    ).done;
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    for (const name of ["bleu", "rouge", "meteor", "levenshtein"]) {
      expect(stdout).toContain(`response/statistical/${name}/score/average`);
      expect(stdout).toContain(`response/statistical/${name}/success/percentage`);
    }
    expect(stdout).toContain("retrieval/llm_judged/context_relevance/score/average");
    expect(stdout).toMatch(/PASS {2}retrieval\/llm_judged\/context_relevance\/score\/average/);
    const results = z
      .object({
        aggregates: z.record(z.string(), z.number().nullable()),
        rows: z.array(z.record(z.string(), z.unknown())),
      })
      .parse(JSON.parse(fs.readFileSync(out, "utf8")));
    // One call per sample row with retrieved context, none for the statistical scorers.
    const judged = results.rows.filter((r) => r["retrieval/llm_judged/context_relevance/score"] !== null).length;
    expect(judged).toBeGreaterThan(0);
    expect(server.stats.totalRequests).toBe(judged);
    const scored = results.rows.filter((r) => r["response/statistical/bleu/score"] !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const row of scored) expect(row["response/statistical/bleu/reason"]).toMatch(/^BLEU-4 /);
  });
});

/**
 * The whole DeepEval and Mastra family on rows of the sample dataset, unchanged. Most of the sample's
 * expected_retrieved_context lists doc URIs only; one row gives the contents, so hallucination has it to judge.
 */
const FAMILY = [
  "faithfulness",
  "answer_relevancy",
  "contextual_precision",
  "contextual_recall",
  "contextual_relevancy",
  "hallucination",
  "toxicity",
  "bias",
  "summarization",
  "context_relevance",
  "bleu",
  "rouge",
  "meteor",
  "levenshtein",
];
const OFFLINE_FAMILY = [
  "faithfulness",
  "hallucination",
  "contextual_precision",
  "contextual_recall",
  "toxicity",
  "bleu",
  "rouge",
  "meteor",
  "levenshtein",
];
const G_EVAL = "name=coherence;criteria=The response is well structured and easy to follow.;params=input,actual_output";

const chunkSchema = z.looseObject({ doc_uri: z.string(), content: z.string().optional() });
const sampleRowSchema = z.looseObject({
  response: z.string().optional(),
  retrieved_context: z.array(chunkSchema).optional(),
  expected_retrieved_context: z.array(chunkSchema).optional(),
});
type SampleRow = z.infer<typeof sampleRowSchema>;

/**
 * Four sample rows as they are: one with everything (its ideal context URIs only); one with expected facts only;
 * one with no retrieval context and no expectations; and the one whose ideal context comes with its contents.
 */
function familyRows(): SampleRow[] {
  const sample = fs
    .readFileSync(SAMPLE_FILE, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => sampleRowSchema.parse(JSON.parse(line)));
  const pick = (test: (row: SampleRow) => boolean) => {
    const found = sample.find(test);
    if (!found) throw new Error("the sample has no such row");
    return found;
  };
  const full = pick((r) => Boolean(r.expected_response && r.expected_retrieved_context && r.retrieved_context?.length));
  const facts = pick((r) => Boolean(r.expected_facts && !r.expected_response && r.response && r.retrieved_context));
  const bare = pick((r) => Boolean(r.response && !r.retrieved_context && !r.expected_response && !r.expected_facts));
  const ideal = pick((r) => Boolean(r.response && r.expected_retrieved_context?.some((c) => c.content)));
  return [full, facts, bare, ideal];
}

const resultsSchema = z.object({
  aggregates: z.record(z.string(), z.number().nullable()),
  aggregate_details: z.array(z.object({ metric: z.string(), skipped: z.number(), errors: z.number() }).loose()),
  rows: z.array(z.record(z.string(), z.unknown())),
});

describe("npm run eval with the whole DeepEval / Mastra / statistical family and a G-Eval judge", () => {
  let dir: string;
  let dataset: string;
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-family-cli-"));
    dataset = path.join(dir, "sample-rows.jsonl");
    fs.writeFileSync(
      dataset,
      familyRows()
        .map((row) => JSON.stringify(row))
        .join("\n") + "\n",
    );
    server = await startFakeOpenAIServer({ responder: fakeScoreResponder });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("scores every metric on the rows that have its inputs, skips the others with why, and exports every column", async () => {
    const env = {
      DATABASE_URL: `file:${path.join(dir, "family.db")}`,
      OPENAI_API_KEY: "sk-test-cli-0000",
      OPENAI_BASE_URL: server.url,
    };
    const json = path.join(dir, "results.json");
    const run = await spawnEval(
      ["--dataset", dataset, "--judges", FAMILY.join(","), "--g-eval", G_EVAL, "--judge-model", "judge-model"].concat([
        "--out",
        json,
        "--quiet",
      ]),
      env,
    ).done;
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const results = resultsSchema.parse(JSON.parse(fs.readFileSync(json, "utf8")));
    const metrics = [...FAMILY.map((name) => resolveMetricName(name) ?? name), "response/llm_judged/g_eval/coherence"];
    expect(results.rows).toHaveLength(4);

    const datasetRows = familyRows();
    const { db, url } = await openDb(env.DATABASE_URL);
    try {
      const runId = /Run ([0-9a-f-]{36}) /.exec(run.stdout)?.[1] ?? "";
      const stored = await getRun(db, runId);
      if (!stored) throw new Error("run not stored");
      const judged = (await listRunResultsPage(db, runId, stored.datasetId, 0, 10)).rows;
      let expectedCalls = 1; // G-Eval's steps, once for its criteria and model
      for (const metric of metrics) {
        const definition = findMetric(metric);
        const callsPerRow = definition ? (definition.callsPerRow ?? 1) : 1;
        for (const [i, row] of judged.entries()) {
          const judgment = row.judgments.find((j) => j.metric === metric);
          const record = results.rows[i];
          const where = `${metric} on row ${i + 1}`;
          // Each score metric's DeepEval columns are in the export.
          for (const field of ["score", "threshold", "success", "reason", "error_message"])
            expect(Object.keys(record), where).toContain(`${metric}/${field}`);
          if (judgment?.status === "skipped") {
            expect(judgment.skipReason, where).toMatch(/^needs /);
            expect(record[`${metric}/score`], where).toBeNull();
            continue;
          }
          expect([judgment?.status, judgment?.errorMessage], where).toEqual(["done", null]);
          expect(record[`${metric}/score`], where).toEqual(expect.any(Number));
          expect(record[`${metric}/threshold`], where).toBe(0.5);
          expect(record[`${metric}/success`], where).toEqual(expect.any(Boolean));
          expect(record[`${metric}/error_message`], where).toBeNull();
          if (definition?.kind === "llm_judged" || !definition) expectedCalls += callsPerRow;
        }
      }
      // Rows lacking a metric's inputs are skipped, not errors: the bare row has no retrieval context,
      // only the ideal row has the ideal context's contents, the facts row no expected response.
      const statusOf = (metric: string, row: number) =>
        judged[row].judgments.find((j) => j.metric === resolveMetricName(metric))?.status;
      expect(datasetRows[2].retrieved_context).toBeUndefined();
      expect(["faithfulness", "contextual_precision", "context_relevance"].map((m) => statusOf(m, 2))).toEqual([
        "skipped",
        "skipped",
        "skipped",
      ]);
      expect([0, 1, 2, 3].map((row) => statusOf("hallucination", row))).toEqual([
        "skipped",
        "skipped",
        "skipped",
        "done",
      ]);
      expect([statusOf("bleu", 1), statusOf("contextual_recall", 1)]).toEqual(["skipped", "done"]);
      expect([0, 1, 2, 3].map((row) => statusOf("summarization", row))).toEqual(["done", "done", "done", "done"]);
      // Every LLM call accounted for: summarization's two per row, one for every other judged row, G-Eval's steps once.
      expect(server.stats.totalRequests).toBe(expectedCalls);
      expect(run.stdout).toContain(`Estimate: ${expectedCalls} LLM calls,`);
    } finally {
      await db.$disconnect();
      closeDirectConnection(url);
    }

    for (const metric of metrics) {
      expect(run.stdout).toContain(`${metric}/score/average`);
      expect(run.stdout).toContain(`${metric}/success/percentage`);
      expect(results.aggregates[`${metric}/score/average`], metric).toEqual(expect.any(Number));
      expect(results.aggregates[`${metric}/success/percentage`], metric).toEqual(expect.any(Number));
    }
    expect(run.stdout).toMatch(/response\/llm_judged\/hallucination\/score\/average .* 1 rows, 3 skipped/);

    // The same run exported as CSV: no call made, the same columns as the JSON rows. A finished run needs no
    // model endpoint to be exported again (this is the command the CLI prints when an export fails).
    const csv = path.join(dir, "results.csv");
    const before = server.stats.totalRequests;
    const runId = /Run ([0-9a-f-]{36}) /.exec(run.stdout)?.[1] ?? "";
    const again = await spawnEval(["--resume", runId, "--out", csv, "--quiet"], { DATABASE_URL: env.DATABASE_URL })
      .done;
    expect([again.code, again.stderr]).toEqual([0, ""]);
    expect(server.stats.totalRequests).toBe(before);
    const header = fs.readFileSync(csv, "utf8").split("\r\n")[0].split(",");
    expect(header).toEqual(Object.keys(results.rows[0]));
    for (const metric of metrics)
      for (const field of ["score", "threshold", "success", "reason", "error_message"])
        expect(header).toContain(`${metric}/${field}`);
  });

  it("offline, refuses the metrics the heuristic judge cannot judge, each with why, and scores the ones it can", async () => {
    const env = { DATABASE_URL: `file:${path.join(dir, "offline.db")}` };
    const refused = await spawnEval(
      ["--dataset", dataset, "--judges", FAMILY.join(","), "--g-eval", G_EVAL, "--judge-model", "heuristic", "--quiet"],
      env,
    ).done;
    expect(refused.code).toBe(2);
    for (const name of ["answer_relevancy", "contextual_relevancy", "bias", "summarization", "context_relevance"])
      expect(refused.stderr).toContain(
        `${name} needs an LLM judge: the offline heuristic judge has no honest lexical rule for it`,
      );
    expect(refused.stderr).toContain("g_eval coherence needs an LLM judge");
    for (const name of OFFLINE_FAMILY) expect(refused.stderr).not.toContain(`${name} needs an LLM judge`);

    const json = path.join(dir, "offline.json");
    const run = await spawnEval(
      ["--dataset", dataset, "--judges", OFFLINE_FAMILY.join(","), "--judge-model", "heuristic"].concat([
        "--out",
        json,
        "--quiet",
      ]),
      env,
    ).done;
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toContain("Judge: offline heuristic judge.");
    const results = resultsSchema.parse(JSON.parse(fs.readFileSync(json, "utf8")));
    for (const name of OFFLINE_FAMILY) {
      const metric = resolveMetricName(name) ?? name;
      expect(results.aggregates[`${metric}/score/average`], metric).toEqual(expect.any(Number));
      expect(run.stdout).toContain(`${metric}/success/percentage`);
      const scored = results.rows.filter((row) => typeof row[`${metric}/score`] === "number");
      expect(scored.length, metric).toBeGreaterThan(0);
      for (const row of results.rows) expect(row[`${metric}/error_message`], metric).toBeNull();
    }
  });
});

async function openDb(databaseUrl: string) {
  return { db: createDb(databaseUrl), url: databaseUrl };
}
