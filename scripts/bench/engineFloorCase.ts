// bench:engine's reference case: the engine's own requests (a sample the fake server kept) sent again by the
// openai SDK over Assay's fetch alone (sdkFloorClient.ts), in a fresh process under /usr/bin/time as the
// engine's cases are. Its CPU per call is the floor the engine's figure stands on at that concurrency.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { startMeasured, type Measured } from "./engineCostCases";
import { getJson, type FakeServerProcess } from "./startFakeServerProcess";

export type FloorOutcome = Measured & { concurrency: number; latencyMs: number; calls: number; judgingS: number };

const judgingSchema = z.object({ judgingS: z.number() });

export async function runFloorCase(options: {
  bundle: string;
  fake: FakeServerProcess;
  nodeArgs: string[];
  tmp: string;
  concurrency: number;
  latencyMs: number;
  calls: number;
}): Promise<FloorOutcome> {
  const { bundle, fake, tmp, concurrency, latencyMs, calls } = options;
  const bodiesFile = path.join(tmp, "floor-bodies.json");
  const bodies = await getJson(`${fake.control}/bodies`, z.array(z.unknown()));
  if (bodies.length === 0) throw new Error("the fake server has kept no request to send again");
  fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
  const measured = await startMeasured(
    [...options.nodeArgs, bundle, fake.url, bodiesFile, String(calls), String(concurrency)],
    { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
    path.join(tmp, "floor-time.txt"),
  );
  const result = await measured.exited;
  if (result.code !== 0) throw new Error(`the SDK-alone reference case failed (${result.code})`);
  const { judgingS } = judgingSchema.parse(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}"));
  return { ...result, concurrency, latencyMs, calls, judgingS };
}
