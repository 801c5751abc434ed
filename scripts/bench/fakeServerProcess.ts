// A fake OpenAI-compatible server in its own process, so the engine benchmark
// measures the engine's CPU and memory, not the server's. Prints one JSON line
// {url, control} on stdout; GET <control>/stats returns the server's counters.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fakeScoreResponder } from "../../tests/support/fakeScoreResponder";
import { fakeAgentJudgeResponder } from "../../tests/support/fakeAgentJudgeResponder";
import { fakeDeepEvalCallsResponder } from "../../tests/support/fakeDeepEvalCallsResponder";
import { startFakeOpenAIServer } from "../../tests/support/fakeOpenAIServer";

const latencyMs = Number(process.argv[2] ?? 200);
// A uniform sample of the requests' bodies (a reservoir), for bench:engine's reference case to send again
// (GET <control>/bodies): the engine's mix of judges, not only the last ones a run sent.
const SAMPLED_BODIES = 256;
const sampledBodies: unknown[] = [];
let seen = 0;
function sample(body: unknown): void {
  seen += 1;
  if (sampledBodies.length < SAMPLED_BODIES) sampledBodies.push(body);
  else {
    const slot = Math.floor(Math.random() * seen);
    if (slot < SAMPLED_BODIES) sampledBodies[slot] = body;
  }
}
// Only the counters: a benchmark's tens of thousands of kept request bodies would slow this server down as it went.
const server = await startFakeOpenAIServer({
  // The agent judges' and DeepEval's own calls first (they answer only their schemas), then every other judge.
  responder: (body, ctx) => {
    sample(body);
    return fakeAgentJudgeResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreResponder(body, ctx);
  },
  behaviour: { latencyMs },
  logRequests: false,
});
const control = http.createServer((req, res) => {
  if (req.url === "/reset") {
    server.stats.maxInFlight = 0;
    res.end("{}");
    return;
  }
  res.setHeader("content-type", "application/json");
  if (req.url === "/bodies") {
    res.end(JSON.stringify(sampledBodies));
    return;
  }
  res.end(
    JSON.stringify({
      totalRequests: server.stats.totalRequests,
      maxInFlight: server.stats.maxInFlight,
      outcomes: server.stats.outcomes,
    }),
  );
});
control.listen(0, "127.0.0.1", () => {
  console.log(
    JSON.stringify({ url: server.url, control: `http://127.0.0.1:${(control.address() as AddressInfo).port}` }),
  );
});
process.on("SIGTERM", () => process.exit(0));
