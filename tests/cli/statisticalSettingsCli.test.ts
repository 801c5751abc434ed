import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createDb } from "@/lib/db/client";
import { closeDirectConnection } from "@/lib/db/store/directSqlite";
import { getRun } from "@/lib/db/runs/runQueries";
import { computeIndividualBleu, computeRougeScores, wordTokenize } from "@/lib/metrics/statistical";
import { SAMPLE_FILE } from "../support/engineKit";
import { baseArgs, usageError } from "../support/evalArgsKit";
import { spawnEval } from "../support/spawnEval";

describe("npm run eval --rouge-type and --bleu-type", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-rouge-cli-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("scores rouge and bleu by the types asked, stores the choice with the run, and says it in each exported reason", async () => {
    const out = path.join(dir, "rouge1.json");
    const url = `file:${path.join(dir, "rouge.db")}`;
    const args = ["--dataset", SAMPLE_FILE, "--judges", "rouge,bleu", "--judge-model", "heuristic", "--quiet"];
    const { code, stderr } = await spawnEval(
      [...args, "--rouge-type", "ROUGE1", "--bleu-type", "bleu2", "--out", out],
      {
        DATABASE_URL: url,
      },
    ).done;
    expect(code, stderr).toBe(0);
    const results = z
      .object({
        run: z.object({ id: z.string(), settings: z.object({ rouge_type: z.string(), bleu_type: z.string() }) }),
        rows: z.array(z.record(z.string(), z.unknown())),
      })
      .parse(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(results.run.settings).toMatchObject({ rouge_type: "rouge1", bleu_type: "bleu2" });
    const scored = results.rows.filter((row) => row["response/statistical/rouge/score"] !== null);
    expect(scored.length).toBeGreaterThan(0);
    for (const row of scored) {
      const expected = computeRougeScores(String(row.response), String(row.expected_response)).rouge1.f1;
      expect(row["response/statistical/rouge/score"]).toBeCloseTo(expected, 4);
      expect(row["response/statistical/rouge/reason"]).toMatch(/^ROUGE-1 F1 /);
      const bleu2 = computeIndividualBleu(
        wordTokenize(String(row.response)),
        wordTokenize(String(row.expected_response)),
        2,
      );
      expect(row["response/statistical/bleu/score"]).toBeCloseTo(bleu2.score, 4);
      expect(row["response/statistical/bleu/reason"]).toMatch(/^BLEU-2 .*DeepEval's bleu2/);
    }
    const db = createDb(url);
    try {
      expect((await getRun(db, results.run.id))?.config.statistical).toEqual({
        rougeType: "rouge1",
        bleuType: "bleu2",
      });
    } finally {
      await db.$disconnect();
      closeDirectConnection(url);
    }
  });

  it("gives NLTK's bleu1 through the export where sentences hold abbreviations (Dr., p.m., U.S.) and initials", async () => {
    // The pairs and their bleu1 as NLTK 3.8 computes DeepEval's score (tests/metrics/reference/punkt_reference.py).
    const pairs = fs
      .readFileSync(path.join(import.meta.dirname, "..", "metrics", "reference", "punkt_reference.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.includes('"bleu1"'))
      .map((line) =>
        z.object({ response: z.string(), expected: z.string(), bleu1: z.number() }).parse(JSON.parse(line)),
      );
    expect(pairs).toHaveLength(4);
    const dataset = path.join(dir, "abbreviations.jsonl");
    fs.writeFileSync(
      dataset,
      pairs
        .map((pair, i) =>
          JSON.stringify({
            request_id: `pair-${i + 1}`,
            request: "Say it.",
            response: pair.response,
            expected_response: pair.expected,
          }),
        )
        .join("\n"),
    );
    const out = path.join(dir, "abbreviations.json");
    const { code, stderr } = await spawnEval(
      [
        "--dataset",
        dataset,
        "--judges",
        "bleu",
        "--judge-model",
        "heuristic",
        "--bleu-type",
        "bleu1",
        "--quiet",
        "--out",
        out,
      ],
      { DATABASE_URL: `file:${path.join(dir, "abbreviations.db")}` },
    ).done;
    expect(code, stderr).toBe(0);
    const rows = z
      .object({ rows: z.array(z.object({ request_id: z.string(), "response/statistical/bleu/score": z.number() })) })
      .parse(JSON.parse(fs.readFileSync(out, "utf8"))).rows;
    expect(
      Object.fromEntries(
        rows.map((row) => [row.request_id, Number(row["response/statistical/bleu/score"].toFixed(10))]),
      ),
    ).toEqual(Object.fromEntries(pairs.map((pair, i) => [`pair-${i + 1}`, Number(pair.bleu1.toFixed(10))])));
  });

  it("refuses a type rouge_score or DeepEval does not have", () => {
    expect(usageError([...baseArgs, "--rouge-type", "rouge3"])).toContain(
      "--rouge-type must be one of rouge1, rouge2, rougeL, rougeLsum",
    );
    expect(usageError([...baseArgs, "--bleu-type", "bleu5"])).toContain(
      "--bleu-type must be one of cumulative4, bleu1, bleu2, bleu3, bleu4",
    );
  });
});
