// Relative imports: kept apart from the library, which reads the counts the upload kept.
import { sqlOf, type Db } from "../../lib/db/client";
import { INPUT_SQL } from "../../lib/db/datasets/datasetQueries";
import type { InputCoverage } from "@/lib/contract/inputSignatures";
import { METRICS, type RowInput } from "@/lib/contract/metricCatalog";

/**
 * A dataset's input coverage counted straight from its rows and chunks, as the dataset page did before the
 * upload kept signature counts: what the kept counts must equal.
 */
export async function recountInputCoverage(
  db: Db,
  datasetId: string,
): Promise<InputCoverage & { columns: Record<string, number> }> {
  const inputEntries = Object.entries(INPUT_SQL) as [RowInput, string][];
  const columnSql: Record<string, string> = {
    request_id: `1 = 1`,
    request: `1 = 1`,
    response: `"responseSource" = 'column'`,
    expected_facts: `"hasExpectedFacts" = TRUE`,
    expected_response: `"hasExpectedResponse" = TRUE`,
    retrieved_context: `"hasRetrievedContext" = TRUE`,
    expected_retrieved_context: `"hasExpectedRetrievedContext" = TRUE`,
    trace: `"hasTrace" = TRUE`,
    tool_calls: `"toolCallsSource" = 'column'`,
    expected_tool_calls: `"hasExpectedToolCalls" = TRUE`,
  };
  const selects = [
    `COUNT(*) AS "rowCount"`,
    ...inputEntries.map(([, sql], i) => `SUM(CASE WHEN ${sql} THEN 1 ELSE 0 END) AS "i${i}"`),
    ...METRICS.map(
      (metric, i) =>
        `SUM(CASE WHEN ${metric.requires.map((input) => INPUT_SQL[input]).join(" AND ")} THEN 1 ELSE 0 END) AS "m${i}"`,
    ),
    ...Object.values(columnSql).map((sql, i) => `SUM(CASE WHEN ${sql} THEN 1 ELSE 0 END) AS "c${i}"`),
  ];
  const row = await sqlOf(db).get<Record<string, number | null>>(
    `SELECT ${selects.join(", ")} FROM "DatasetRow" WHERE "datasetId" = ?`,
    [datasetId],
  );
  const num = (key: string) => Number(row?.[key] ?? 0);
  return {
    rowCount: num("rowCount"),
    inputs: Object.fromEntries(inputEntries.map(([input], i) => [input, num(`i${i}`)])) as Record<RowInput, number>,
    metrics: Object.fromEntries(METRICS.map((metric, i) => [metric.name, num(`m${i}`)])),
    columns: Object.fromEntries(Object.keys(columnSql).map((column, i) => [column, num(`c${i}`)])),
  };
}
