/**
 * Download file names. Run names are free text and often repeated ("baseline", "gpt-4.1 run"), so a name
 * alone made two runs' exports the same file, the second download overwriting or renaming the first:
 * every name carries the short ids of the runs it holds.
 */

/** The last 8 characters of a run id: a cuid's start is its timestamp, shared by runs made close together. */
export function shortRunId(runId: string): string {
  return runId.slice(-8).replace(/[^A-Za-z0-9]/g, "") || "run";
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
}

/** `<run name>-<short id>.<format>`, e.g. `baseline-k3x9q2ab.csv`. */
export function runExportFilename(run: { id: string; name: string }, format: string): string {
  return `${safeName(run.name) || "run"}-${shortRunId(run.id)}.${format}`;
}

/** `<dataset name>-labels.<format>`: a dataset's human labels, as the labels export names them. */
export function labelExportFilename(datasetName: string, format: string): string {
  return `${safeName(datasetName) || "dataset"}-labels.${format}`;
}

/** `comparison-<short ids…>[-<part>].<format>`, the baseline's id first. */
export function comparisonExportFilename(runIds: string[], format: string, part?: string): string {
  return `comparison-${runIds.map(shortRunId).join("-")}${part ? `-${part}` : ""}.${format}`;
}
