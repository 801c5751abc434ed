import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/createAuth";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { creatorLabel } from "@/lib/auth/creatorLabel";
import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import { getDataset, listDatasets } from "@/lib/db/datasets/datasetQueries";
import { getRun, listRuns } from "@/lib/db/runs/runQueries";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { createRun } from "@/lib/engine/createRun";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { byteChunks, toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { TEST_SECRET } from "./authKit";

let temp: Awaited<ReturnType<typeof createTempDb>>;
let runnerId: string;

beforeAll(async () => {
  temp = await createTempDb();
  const auth = createAuth({
    db: temp.db,
    secret: TEST_SECRET,
    baseURL: "http://127.0.0.1:1",
    oidc: null,
    rateLimit: false,
  });
  const runner = await createUserAccount(auth, temp.db, {
    email: "rita@example.com",
    name: "Rita Runner",
    password: "runner password 1234",
    role: "runner",
  });
  runnerId = runner.id;
}, 60_000);

afterAll(async () => {
  await temp?.cleanup();
});

describe("who created a dataset or a run", () => {
  it("is stored by the upload sink and by createRun, listed, and shown by name", async () => {
    const upload = await ingestUpload({
      chunks: byteChunks(toJsonl([{ request: "What is 2+2?", response: "4" }]), 65536),
      filename: "one.jsonl",
      mode: "strict",
      sink: createDatasetSink(temp.db, { createdById: runnerId }),
    });
    if (!upload.ok) throw new Error("the upload failed");
    expect((await getDataset(temp.db, upload.datasetId))?.createdById).toBe(runnerId);
    expect((await listDatasets(temp.db)).map((dataset) => dataset.createdById)).toEqual([runnerId]);

    const runId = await createRun(
      temp.db,
      {
        datasetId: upload.datasetId,
        metrics: ["response/llm_judged/safety"],
        judge: { provider: "heuristic", model: HEURISTIC_MODEL },
        concurrency: 1,
        chunkMode: "batched",
      },
      { createdById: runnerId },
    );
    expect((await getRun(temp.db, runId))?.createdById).toBe(runnerId);
    const [listed] = await listRuns(temp.db);
    expect(listed.createdById).toBe(runnerId);

    const names = await userIdentitiesById(temp.db, [listed.createdById]);
    expect(creatorLabel(listed.createdById, names)).toBe("Rita Runner <rita@example.com>");
    // Anyone may rename themselves to another's name; the email still tells the two apart.
    const namesake = await temp.db.user.create({
      data: { id: "namesake", name: "Rita Runner", email: "mallory@example.com", role: "viewer" },
    });
    const both = await userIdentitiesById(temp.db, [runnerId, namesake.id]);
    expect(creatorLabel(namesake.id, both)).toBe("Rita Runner <mallory@example.com>");
    expect(creatorLabel(runnerId, both)).not.toBe(creatorLabel(namesake.id, both));
  });

  it("is null without a user (sign-in off, the CLI), shown as local or unknown", async () => {
    const upload = await ingestUpload({
      chunks: byteChunks(toJsonl([{ request: "Hi?", response: "Hello" }]), 65536),
      filename: "two.jsonl",
      mode: "strict",
      sink: createDatasetSink(temp.db),
    });
    if (!upload.ok) throw new Error("the upload failed");
    expect((await getDataset(temp.db, upload.datasetId))?.createdById).toBeNull();
    // Made without an account (sign-in off, the CLI): "local" whether or not sign-in is on now.
    expect(creatorLabel(null, new Map())).toBe("local");
    expect(creatorLabel("a-deleted-user", new Map())).toBe("a removed user");
  });
});
