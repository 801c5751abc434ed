// Starts and stops a PostgreSQL from npm, then ends with the exit code given, as a test runner
// does after a failure (process.exitCode, no process.exit): what the process ends with is checked.
import os from "node:os";
import path from "node:path";
import { startLocalPostgres } from "@/lib/db/store/embeddedPostgres";

const server = await startLocalPostgres({
  dir: path.join(os.tmpdir(), `assay-exit-check-${process.pid}`),
  persistent: false,
});
await server.stop();
process.exitCode = Number(process.argv[2]);
