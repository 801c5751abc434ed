// bench:engine's reference case: the same judge requests sent by the openai SDK over Assay's fetch, with
// nothing of the engine around them (no prompt building, no parsing beyond JSON, no store). What this process
// costs a call is the floor under the engine's own figure on this machine: the engine, which makes these
// calls through the same SDK and fetch, cannot cost less. Started by engineCostBench.ts under /usr/bin/time:
//   node sdkFloorClient.mjs <baseURL> <bodies.json> <calls> <concurrency>
// It prints one JSON line, {judgingS}: the wall time of the calls alone, start-up excluded.
import fs from "node:fs";
import OpenAI from "openai";
import { z } from "zod";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { nodeHttpFetch } from "../../lib/llm/nodeHttpFetch";

const [baseURL, bodiesFile, callsArg, concurrencyArg] = process.argv.slice(2);
// Bodies the engine sent, as the fake server received them: replayed as they are, checked only for their shape.
const bodySchema = z.looseObject({ model: z.string(), messages: z.array(z.unknown()) });
const bodies = z
  .array(bodySchema)
  .parse(JSON.parse(fs.readFileSync(bodiesFile, "utf8")))
  .map((body) => body as unknown as ChatCompletionCreateParamsNonStreaming);
const calls = Number(callsArg);
const concurrency = Number(concurrencyArg);
if (bodies.length === 0 || !(calls > 0) || !(concurrency > 0))
  throw new Error("usage: baseURL bodies.json calls concurrency");

// The options lib/llm/openaiClient.ts gives the SDK for an OpenAI-compatible endpoint.
const sdk = new OpenAI({
  apiKey: "sk-bench-floor-0000",
  baseURL,
  timeout: 60_000,
  maxRetries: 0,
  fetch: nodeHttpFetch,
});

let sent = 0;
async function lane(): Promise<void> {
  while (sent < calls) {
    const body = bodies[sent++ % bodies.length];
    const completion = await sdk.chat.completions.create(body);
    JSON.parse(completion.choices[0]?.message?.content ?? "null");
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, lane));
console.log(JSON.stringify({ judgingS: (performance.now() - started) / 1000 }));
