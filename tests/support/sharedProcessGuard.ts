// Setup file of the projects whose test files share worker processes
// (vitest.config.ts, isolate: false). A file there must leave the process as it
// found it: what it changes in process.env, or the app's process-wide store
// client (getDb, kept on globalThis), would reach every later file in the same
// process. A file that needs either is listed in OWN_PROCESS instead, and this
// guard names the one that forgot.
import { afterAll } from "vitest";
import { processStoreClientOpened } from "@/lib/db/client";

const envAtStart = { ...process.env };

afterAll(() => {
  const changed = [...new Set([...Object.keys(envAtStart), ...Object.keys(process.env)])].filter(
    (key) => envAtStart[key] !== process.env[key],
  );
  const problems = [
    ...(changed.length > 0 ? [`changed process.env (${changed.join(", ")})`] : []),
    ...(processStoreClientOpened() ? ["opened the app's process-wide store client (getDb)"] : []),
  ];
  if (problems.length > 0)
    throw new Error(
      `This file ${problems.join(" and ")}, which a shared process would carry into the next file: ` +
        "list it in OWN_PROCESS in vitest.config.ts.",
    );
});
