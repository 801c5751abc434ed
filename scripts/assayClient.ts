// The CI client: `npm run eval -- --server URL …` as one self-contained file that a team's Assay server serves
// at /api/v1/client.mjs (built from the server's own sources, so the client always matches its server), run
// with plain `node` and nothing installed:
//
//   curl -fsS https://assay.example.com/api/v1/client.mjs -o assay.mjs
//   ASSAY_TOKEN=… node assay.mjs --server https://assay.example.com --dataset eval.jsonl --baseline latest:branch=main
//
// It takes the CLI's options and exit codes (0 passed, 1 a threshold missed or a real regression, 2 bad usage or
// input, 3 the run did not complete), and reaches the server only over HTTP: no database, no model client, no
// judge is in it (lib/cli/remoteEval.ts and what it imports).
import { createApiClient } from "../lib/cli/apiClient";
import { reportKnownCliError } from "../lib/cli/cliErrors";
import { EVAL_USAGE, parseEvalArgs, UsageError } from "../lib/cli/evalArgs";
import { runRemoteEval } from "../lib/cli/remoteEval";

const USAGE = `Assay's CI client (runs on a team's server; --server is required).\n\n${EVAL_USAGE.replaceAll("npm run eval --", "node assay.mjs")}`;

async function main(argv: string[]): Promise<number> {
  const args = parseEvalArgs(argv);
  if (!args.server)
    throw new UsageError("this client runs on a team's Assay server: give --server URL (the server it came from)");
  return runRemoteEval(args, createApiClient(args.server, process.env.ASSAY_TOKEN?.trim() || undefined), {
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = reportKnownCliError(error, USAGE, (line) => console.error(line));
    if (known !== null) process.exit(known);
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(3);
  },
);
