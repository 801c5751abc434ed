import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { oneSpanTrace } from "../support/agentRuns";
import { fencedContents } from "../support/fenced";
import { startFakeOpenAIServer, type LoggedRequest } from "../support/fakeOpenAIServer";
import { fakeScoreResponder } from "../support/fakeScoreResponder";
import { spawnEval } from "../support/spawnEval";

const BLEU = "response/statistical/bleu";
const ROUGE = "response/statistical/rouge";
const RELEVANCY = "response/llm_judged/answer_relevancy";

const exportSchema = z.object({
  rows: z.array(z.record(z.string(), z.unknown())),
  aggregates: z.record(z.string(), z.unknown()),
});

/** What DeepEval reads as a test case: "" is an actual_output (it rejects only None); a missing one is not. */
const EMPTY_RESPONSE_ROWS = [
  {
    request_id: "said",
    request: "Where is the cat?",
    response: "The cat sat on the mat.",
    expected_response: "The cat sat on the mat.",
  },
  { request_id: "empty", request: "Where is the dog?", response: "", expected_response: "The dog sat on the rug." },
  { request_id: "missing", request: "Where is the bird?", expected_response: "The bird sat on the wire." },
];

function callNames(requests: readonly LoggedRequest[]): string[] {
  return requests.map((r) => String(r.body.response_format?.json_schema?.name));
}

describe("DeepEval-exact reads a test case as DeepEval does", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-exact-inputs-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Without DeepEval's reason calls unless `withReason`. */
  async function evaluate(name: string, rows: readonly object[], args: string[], withReason = false) {
    const dataset = path.join(dir, `${name}.jsonl`);
    fs.writeFileSync(dataset, rows.map((row) => JSON.stringify(row)).join("\n"));
    const server = await startFakeOpenAIServer({ responder: fakeScoreResponder });
    const out = path.join(dir, `${name}.json`);
    try {
      const { code, stdout, stderr } = await spawnEval(
        [
          ...["--dataset", dataset, "--judge-model", "judge-model", "--quiet", "--out", out, ...args],
          ...(withReason ? [] : ["--no-include-reason"]),
        ],
        {
          DATABASE_URL: `file:${path.join(dir, `${name}.db`)}`,
          OPENAI_API_KEY: "sk-test-exact-inputs-0000",
          OPENAI_BASE_URL: server.url,
        },
      ).done;
      expect(code, stderr).toBe(0);
      const estimated = Number(/Estimate: (\d+) LLM calls/.exec(stdout)?.[1]);
      const exported = exportSchema.parse(JSON.parse(fs.readFileSync(out, "utf8")));
      const byId = new Map(exported.rows.map((row) => [String(row.request_id), row]));
      return { estimated, requests: [...server.requests], byId, aggregates: exported.aggregates };
    } finally {
      await server.close();
    }
  }

  it("scores an empty response 0 (BLEU, ROUGE) and judges it with DeepEval's metrics; the default mode skips it", async () => {
    const judges = ["--judges", "bleu,rouge,answer_relevancy"];
    const folded = await evaluate("empty-default", EMPTY_RESPONSE_ROWS, judges);
    for (const id of ["empty", "missing"]) {
      expect(folded.byId.get(id)?.[`${BLEU}/score`], id).toBeNull();
      expect(folded.byId.get(id)?.[`${RELEVANCY}/score`], id).toBeNull();
    }
    expect(folded.byId.get("said")?.[`${BLEU}/score`]).toBe(1);
    expect(folded.aggregates[`${BLEU}/score/average`]).toBe(1);
    // Folded: one answer-relevancy call for the one row with a response.
    expect(folded.estimated).toBe(1);
    expect(folded.requests).toHaveLength(1);

    const exact = await evaluate("empty-exact", EMPTY_RESPONSE_ROWS, [...judges, "--deepeval-exact"]);
    expect(exact.byId.get("empty")?.[`${BLEU}/score`]).toBe(0);
    expect(exact.byId.get("empty")?.[`${ROUGE}/score`]).toBe(0);
    expect(exact.byId.get("said")?.[`${BLEU}/score`]).toBe(1);
    expect(exact.aggregates[`${BLEU}/score/average`]).toBe(0.5);
    expect(exact.aggregates[`${ROUGE}/score/average`]).toBe(0.5);
    // A missing response is not DeepEval's "": still skipped.
    expect(exact.byId.get("missing")?.[`${BLEU}/score`]).toBeNull();
    expect(exact.byId.get("missing")?.[`${RELEVANCY}/score`]).toBeNull();
    // The empty output was judged: DeepEval's statements call (which finds none), then nothing to verdict.
    expect(typeof exact.byId.get("empty")?.[`${RELEVANCY}/score`]).toBe("number");
    const statementCalls = exact.requests.filter((r) => callNames([r])[0] === "deepeval_statements");
    const outputs = statementCalls.map((r) =>
      fencedContents(r.body.messages.map((m: { content: string }) => m.content).join("\n"), "actual_output"),
    );
    expect(outputs).toContainEqual([""]);
    // The estimate counted the empty row before the run: DeepEval's two calls a row (statements, verdicts) for
    // both rows. The run made one fewer: with no statements there is nothing to verdict, as in DeepEval.
    expect(exact.estimated).toBe(4);
    expect(callNames(exact.requests).sort()).toEqual([
      "deepeval_statement_verdicts",
      "deepeval_statements",
      "deepeval_statements",
    ]);
  });

  it("gives G-Eval DeepEval's tools, metadata and tags, with fresh steps for every row at the estimate's count", async () => {
    const trace = (answer: string) =>
      oneSpanTrace(answer, {
        trace_id: `tr-${answer.length}`,
        request_time: "2026-11-30T06:00:00Z",
        trace_metadata: { "mlflow.trace_schema.version": "3", customer_tier: "gold" },
        tags: { deployment: "canary" },
      });
    const rows = [1, 2, 3].map((n) => ({
      request_id: `agent-${n}`,
      request: `Book table ${n}.`,
      response: `Booked table ${n}.`,
      trace: trace(`Booked table ${n}.`),
      tool_calls: [{ name: "book_table", arguments: { table: n } }],
      expected_tool_calls: [{ name: "book_table", arguments: { table: n } }],
    }));
    const gEval =
      "name=tooling;criteria=The agent calls the right tool for the tier.;params=input,tools_called,expected_tools,metadata,tags;threshold=0.3";
    const exact = await evaluate("geval-exact", rows, ["--g-eval", gEval, "--deepeval-exact"]);
    const names = callNames(exact.requests);
    // DeepEval's evaluate(): steps then a score, for every row.
    expect(names.filter((n) => n === "g_eval_steps")).toHaveLength(3);
    expect(names.filter((n) => n === "g_eval_score")).toHaveLength(3);
    expect(exact.estimated).toBe(6);
    const scorePrompt = exact.requests
      .filter((r) => callNames([r])[0] === "g_eval_score")
      .map((r) => r.body.messages.map((m: { content: string }) => m.content).join("\n"))
      .find((prompt) => prompt.includes("Book table 1."));
    if (scorePrompt === undefined) throw new Error("no score call for the first row");
    expect(scorePrompt).toContain("Tools Called");
    expect(JSON.parse(fencedContents(scorePrompt, "tools_called")[0])).toEqual([
      { name: "book_table", input_parameters: { table: 1 } },
    ]);
    expect(JSON.parse(fencedContents(scorePrompt, "expected_tools")[0])).toEqual([
      { name: "book_table", input_parameters: { table: 1 } },
    ]);
    expect(JSON.parse(fencedContents(scorePrompt, "metadata")[0])).toMatchObject({ customer_tier: "gold" });
    expect(JSON.parse(fencedContents(scorePrompt, "tags")[0])).toEqual({ deployment: "canary" });
    for (const row of exact.byId.values())
      expect(typeof row["response/llm_judged/g_eval/tooling/score"]).toBe("number");
  });

  it("makes DeepEval's calls for every DeepEval metric, as many as the estimate said before the run", async () => {
    // Two distinct rows on which every extraction finds something (truths, claims, statements, opinions,
    // questions), so DeepEval makes each metric's whole sequence. (With nothing extracted, DeepEval and Assay
    // both skip the verdict call: the estimate is then an upper bound.) Two runs: across metrics, an identical
    // prompt (toxicity's and bias's opinions, faithfulness's and summarization's claims) is asked once and the
    // other served from the judge cache, so those metrics go to separate runs.
    const rows = ["plans", "regions"].map((topic, i) => ({
      request_id: `all-${i + 1}`,
      request: `What do the ${topic} say?`,
      // A flaw in every row, at another place in each (the fake judge's reasons name a claim by its place), so no
      // two rows' reason prompts are the same: the cache would answer the second.
      response: `The ${topic} page covers KEY${i + 1}. ${"It is short. ".repeat(i)}In my OPINION the ${topic} are TOXIC and BIASED. The ${topic} page CONTRADICTS the docs.`,
      expected_response: `The ${topic} page covers KEY${i + 1}.`,
      retrieved_context: [
        { doc_uri: `docs/${topic}#a`, content: `The ${topic} page covers KEY${i + 1}. It was updated in ${2020 + i}.` },
        { doc_uri: `docs/${topic}#b`, content: `Support for ${topic} is by email.` },
      ],
      expected_retrieved_context: [{ doc_uri: `docs/${topic}#a`, content: `The ${topic} page covers KEY${i + 1}.` }],
    }));
    // DeepEval's calls a row with include_reason: the extractions, the verdicts (contextual relevancy's per chunk:
    // 2 here), summarization's questions and two sets of answers, then the reason.
    const perRow: Record<string, number> = {
      faithfulness: 4,
      answer_relevancy: 3,
      contextual_precision: 2,
      contextual_recall: 2,
      contextual_relevancy: 3,
      hallucination: 2,
      toxicity: 3,
      bias: 3,
      summarization: 7,
    };
    const runs = [
      ["faithfulness", "answer_relevancy", "contextual_precision", "contextual_recall", "contextual_relevancy"],
      ["hallucination", "toxicity", "summarization"],
      ["bias"],
    ];
    expect(runs.flat().sort()).toEqual(Object.keys(perRow).sort());
    for (const metrics of runs) {
      const exact = await evaluate(
        `every-${metrics[0]}`,
        rows,
        ["--judges", metrics.join(","), "--deepeval-exact"],
        true,
      );
      const calls = metrics.reduce((sum, metric) => sum + 2 * perRow[metric], 0);
      expect(exact.estimated, metrics.join()).toBe(calls);
      expect(exact.requests.length, metrics.join()).toBe(calls);
    }
  }, 120_000);

  it("reserves a G-Eval row's steps call too, so a call budget is never overrun under DeepEval-exact", async () => {
    const dataset = path.join(dir, "budget.jsonl");
    fs.writeFileSync(
      dataset,
      [1, 2, 3, 4]
        .map((n) => JSON.stringify({ request_id: `b-${n}`, request: `Question ${n}?`, response: `Answer ${n}.` }))
        .join("\n"),
    );
    const server = await startFakeOpenAIServer({ responder: fakeScoreResponder });
    try {
      const { code, stdout } = await spawnEval(
        [
          ...["--dataset", dataset, "--judge-model", "judge-model", "--deepeval-exact", "--quiet"],
          ...["--g-eval", "name=clear;criteria=The answer is clear.;params=input,actual_output;threshold=0.3"],
          ...["--budget-calls", "5"],
        ],
        {
          DATABASE_URL: `file:${path.join(dir, "budget.db")}`,
          OPENAI_API_KEY: "sk-test-exact-inputs-0000",
          OPENAI_BASE_URL: server.url,
        },
      ).done;
      // Paused at the budget: two rows of two calls; a third row's pair would pass 5.
      expect(code, stdout).toBe(3);
      expect(server.requests).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});
