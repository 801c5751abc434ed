import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEvalArgs } from "@/lib/cli/evalArgs";
import { baseArgs, usageError } from "../support/evalArgsKit";
import { fakeExampleFollower } from "../support/fakeExampleFollower";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { spawnEval } from "../support/spawnEval";
import { isRudeRow, supportReplies } from "../support/supportReplies";

// `npm run eval -- --align`: the real CLI on a dataset uploaded with its human labels, judged through the fake
// OpenAI server that answers like the closest labelled example in its prompt ("yes", or a G-Eval judge's top
// score, without examples). The rude (even) rows are labelled "no" for each judge; the aligned version is
// measured on the held-out labels, both versions' agreement is printed, and the file it writes runs again
// with --custom-judges or --g-eval @FILE.

const rows = supportReplies(30).map((row, i) => ({
  ...row,
  // A built-in judge's labels come with the dataset; a custom or G-Eval judge's once a run defines it (--labels).
  human_labels: { relevance_to_query: isRudeRow(i + 1) ? "no" : "yes" },
}));
const labelRecords = rows.flatMap((row, i) => [
  { request_id: row.request_id, metric: "response/llm_judged/tone", label: isRudeRow(i + 1) ? "no" : "yes" },
  { request_id: row.request_id, metric: "response/llm_judged/g_eval/politeness", label: isRudeRow(i + 1) ? 0 : 1 },
]);

describe("npm run eval -- --align", () => {
  let dir: string;
  let server: FakeOpenAIServer;
  let env: Record<string, string>;
  let datasetFile: string;
  let toneFile: string;
  let labelsFile: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-align-cli-"));
    server = await startFakeOpenAIServer({ responder: fakeExampleFollower });
    env = {
      DATABASE_URL: `file:${path.join(dir, "align.db")}`,
      OPENAI_API_KEY: "sk-test-align-0000",
      OPENAI_BASE_URL: server.url,
    };
    datasetFile = path.join(dir, "replies.jsonl");
    fs.writeFileSync(datasetFile, rows.map((row) => JSON.stringify(row)).join("\n"));
    labelsFile = path.join(dir, "labels.jsonl");
    fs.writeFileSync(labelsFile, labelRecords.map((record) => JSON.stringify(record)).join("\n"));
    toneFile = path.join(dir, "tone.json");
    fs.writeFileSync(
      toneFile,
      JSON.stringify({ assessmentName: "tone", assessmentType: "ANSWER", instructions: "The reply is polite." }),
    );
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("parses --align, --custom-judges and --g-eval @FILE, and refuses what cannot work", () => {
    const args = parseEvalArgs([...baseArgs, "--align", "correctness", "--align-guidance", "Be strict."]);
    expect(args.align).toEqual({ judge: "correctness", guidance: "Be strict." });
    expect(parseEvalArgs(["--dataset", "x.csv", "--custom-judges", toneFile]).customJudges).toEqual([
      { assessmentName: "tone", assessmentType: "ANSWER", instructions: "The reply is polite." },
    ]);
    expect(parseEvalArgs(["--dataset", "x.csv", "--custom-judges", toneFile]).metrics).toEqual([]);
    expect(usageError([...baseArgs, "--align-out", "x.json"])).toContain("give --align too");
    expect(usageError([...baseArgs, "--align", "tone", "--align-out", "x.txt"])).toContain("must end in .json");
    expect(usageError([...baseArgs, "--custom-judges", path.join(dir, "missing.json")])).toContain("cannot read");
    fs.writeFileSync(path.join(dir, "bad.json"), JSON.stringify({ assessmentName: "Tone!", assessmentType: "ANSWER" }));
    expect(usageError([...baseArgs, "--custom-judges", path.join(dir, "bad.json")])).toMatch(
      /bad\.json: assessmentName: assessment_name: lower-case letters.*instructions/,
    );
  });

  it("aligns a built-in judge: prints both versions' held-out agreement and writes a file --custom-judges runs", async () => {
    const out = path.join(dir, "relevance.json");
    const aligned = await spawnEval(
      ["--dataset", datasetFile, "--judges", "relevance_to_query", "--judge-model", "judge-model", "--quiet"].concat([
        "--align",
        "relevance_to_query",
        "--align-out",
        out,
      ]),
      env,
    ).done;
    expect(aligned.code, aligned.stderr).toBe(0);
    expect(aligned.stdout).toContain(
      "Aligning response/llm_judged/relevance_to_query with its labels (15 yes, 15 no): 18 training labels",
    );
    expect(aligned.stdout).toContain("12 held out and never shown.");
    expect(aligned.stdout).toMatch(/original\s+κ 0\.00 \(no interval\)\s+agreement 50\.0%/);
    expect(aligned.stdout).toMatch(/aligned\s+κ 1\.00 \(no interval\)\s+agreement 100\.0%/);
    expect(aligned.stdout).toContain("Agrees more (real): on 12 held-out rows both versions judged");
    expect(aligned.stdout).toContain(
      `Wrote relevance_to_query_aligned_v1 to ${out}: run it with --custom-judges ${out}`,
    );
    const definition = JSON.parse(fs.readFileSync(out, "utf8"));
    expect(definition).toMatchObject({
      assessmentName: "relevance_to_query_aligned_v1",
      basedOn: "response/llm_judged/relevance_to_query",
    });

    const before = server.requests.length;
    const rerun = await spawnEval(
      ["--dataset", datasetFile, "--custom-judges", out, "--judge-model", "judge-model", "--quiet"],
      env,
    ).done;
    expect(rerun.code, rerun.stderr).toBe(0);
    // The aligned judge's verdicts are the people's: a yes on half the rows.
    expect(rerun.stdout).toMatch(/response\/llm_judged\/relevance_to_query_aligned_v1\/rating\/percentage\s+50\.0/);
    const prompts = server.requests.slice(before).map((r) => String(r.body.messages[1].content));
    // The 12 held-out rows were judged by this same prompt while it was measured: the judge cache answers them.
    expect(prompts).toHaveLength(18);
    expect(prompts.every((prompt) => prompt.includes("<untrusted_example_"))).toBe(true);
  }, 120_000);

  it("aligns a custom judge given in a file, and a G-Eval judge, the aligned G-Eval taken back by --g-eval @FILE", async () => {
    const tone = await spawnEval(
      [
        "--dataset",
        datasetFile,
        "--custom-judges",
        toneFile,
        "--g-eval",
        "name=politeness;criteria=The reply treats the user with respect;params=actual_output",
        "--labels",
        labelsFile,
        "--judge-model",
        "judge-model",
        "--quiet",
        "--align",
        "tone",
        "--align-out",
        path.join(dir, "tone-aligned.json"),
      ],
      { ...env },
    ).done;
    expect(tone.code, tone.stdout + tone.stderr).toBe(0);
    expect(tone.stdout).toContain("Labels: 60 read from");
    expect(tone.stdout).toContain("Agrees more (real)");
    const runId = /Run (\S+) "/.exec(tone.stdout)?.[1] ?? "";
    const out = path.join(dir, "politeness.json");
    // The same run, resumed to align its G-Eval judge: no judging again.
    const gEval = await spawnEval(
      ["--resume", runId, "--quiet", "--align", "g_eval/politeness", "--align-out", out],
      env,
    ).done;
    expect(gEval.code, gEval.stderr).toBe(0);
    expect(gEval.stdout).toContain("Agrees more (real)");
    expect(gEval.stdout).toContain(`run it with --g-eval @${out}`);
    const rerun = await spawnEval(
      ["--dataset", datasetFile, "--g-eval", `@${out}`, "--judge-model", "judge-model", "--quiet"],
      env,
    ).done;
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/response\/llm_judged\/g_eval\/politeness_aligned_v1\/score\/average\s+0\.5/);
  }, 120_000);

  it("says why it cannot align: a judge the run does not have, too few labels", async () => {
    const missing = await spawnEval(
      ["--dataset", datasetFile, "--judges", "safety", "--judge-model", "judge-model", "--quiet", "--align", "tone"],
      env,
    ).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--align tone: no judge of this run has that name");
    const safety = await spawnEval(
      ["--dataset", datasetFile, "--judges", "safety", "--judge-model", "judge-model", "--quiet", "--align", "safety"],
      env,
    ).done;
    expect(safety.code).toBe(2);
    expect(safety.stderr).toContain(
      "an alignment needs at least two labels of each answer, yes and no (this judge has 0 yes and 0 no)",
    );
  }, 120_000);
});
