import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRunSummaries } from "@/lib/db/runs/runListQueries";
import { listRuns } from "@/lib/db/runs/runQueries";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { thirtyRowsWithContext } from "../support/scoreRun";
import { openDataset, type StoredDataset } from "../support/servedDataset";

// A CI job tags its runs (--tag branch=main); the runs page and the API filter by one whole tag.
describe("runs filtered by a tag", () => {
  let env: StoredDataset;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    env = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
    const make = (name: string, tags: string[]) =>
      createRun(env.db, {
        datasetId: env.datasetId,
        name,
        tags,
        metrics: ["safety"],
        judge: { provider: "heuristic", model: HEURISTIC_MODEL },
      });
    ids.main = await make("main", ["branch=main", "git_sha=abc"]);
    ids.main2 = await make("main2", ["branch=main2"]);
    ids.percent = await make("percent", ['odd%tag_"quoted"']);
    ids.none = await make("untagged", []);
  });
  afterAll(async () => env.cleanup());

  it("matches the whole tag, with LIKE's wildcards and JSON's quotes taken literally", async () => {
    const { db } = env;
    const listed = async (tag: string) => (await listRuns(db, 200, undefined, tag)).map((run) => run.name);
    const summaries = async (tag: string) => (await listRunSummaries(db, { tag, limit: 50 })).map((run) => run.name);
    for (const read of [listed, summaries]) {
      expect(await read("branch=main")).toEqual(["main"]);
      expect(await read("branch=main2")).toEqual(["main2"]);
      expect(await read("branch=mai")).toEqual([]);
      expect(await read('odd%tag_"quoted"')).toEqual(["percent"]);
      // Unescaped, _ and % would match any character here.
      expect(await read('odd_tag%"quoted"')).toEqual([]);
    }
    // The page's counts come with the filtered runs: every judgment of the tagged run is pending.
    const [main] = await listRuns(db, 200, undefined, "branch=main");
    expect(main.counts).toEqual({ pending: 30 });
    expect(main.tags).toEqual(["branch=main", "git_sha=abc"]);
    expect(await listRuns(db, 200, env.datasetId)).toHaveLength(4);
  });
});
