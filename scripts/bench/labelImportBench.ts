// npm run bench:labels — imports a file of 20,000 labels (two metrics on each of 10,000 rows) into a SQLite
// store, the whole body at once as a buffered request arrives, and prints the import's time and how long it
// held the event loop: the longest block, and how late a 10 ms timer (another request's turn) was at worst,
// against a target. SQLite answers synchronously, so only the import's own pauses between batches let other
// requests in; PostgreSQL's queries wait on the network. Asserts nothing. BENCH_ROWS=… sets the rows.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { importLabelFile } from "../../lib/labels/labelImport";
import { arrivingWhole, twoLabelsPerRow } from "../../tests/support/labelFiles";
import { syntheticRows } from "../../tests/support/syntheticRows";
import { importBenchRows, openBenchStore } from "./benchStore";

/** The longest another request may wait behind the import, in milliseconds. */
const LATENESS_TARGET_MS = 250;
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const IMPORTS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const store = await openBenchStore("assay-bench-labels-");
  try {
    const datasetId = await importBenchRows(store.db, syntheticRows(ROWS, 1));
    const measured: { seconds: number; blockMs: number; latenessMs: number }[] = [];
    // Each import changes every label (yes, then no, then yes), so each writes a revision per record.
    for (let i = 0; i < IMPORTS; i++) {
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      let latenessMs = 0;
      let due = performance.now() + 10;
      const other = setInterval(() => {
        latenessMs = Math.max(latenessMs, performance.now() - due);
        due = performance.now() + 10;
      }, 10);
      const started = performance.now();
      const result = await importLabelFile(
        store.db,
        datasetId,
        arrivingWhole(twoLabelsPerRow(ROWS, i % 2 ? "no" : "yes")),
        "csv",
        {
          importedBy: null,
        },
      );
      const seconds = (performance.now() - started) / 1000;
      // A loop blocked from start to end never ran the timer: let it fire now, late by the whole block.
      await new Promise((resolve) => setTimeout(resolve, 50));
      clearInterval(other);
      delay.disable();
      if (!result.ok) throw new Error(`the label import failed: ${JSON.stringify(result.issues.slice(0, 3))}`);
      measured.push({ seconds, blockMs: delay.max / 1e6, latenessMs });
      console.log(
        `import ${i + 1}: ${result.records.toLocaleString("en-US")} labels in ${seconds.toFixed(1)} s; ` +
          `longest event-loop block ${(delay.max / 1e6).toFixed(0)} ms; a 10 ms timer at worst ${latenessMs.toFixed(0)} ms late`,
      );
    }
    const lateness = median(measured.map((m) => m.latenessMs));
    console.log(
      `median of ${IMPORTS}: ${median(measured.map((m) => m.seconds)).toFixed(1)} s an import, longest block ` +
        `${median(measured.map((m) => m.blockMs)).toFixed(0)} ms; another request at worst ${lateness.toFixed(0)} ms late ` +
        `(target ≤ ${LATENESS_TARGET_MS} ms) ${lateness <= LATENESS_TARGET_MS ? "ok" : "MISSED"}`,
    );
  } finally {
    await store.close();
  }
}

await main();
