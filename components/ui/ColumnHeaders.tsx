/** A column header: its text, or a name only screen readers hear (for a column of links or buttons). */
export type ColumnHeader = string | { srOnly: string };

/** The header row of a small stats table: one `th scope="col"` per column, padded alike. */
export function ColumnHeaders({
  columns,
  className = "text-xs text-slate-600",
}: {
  columns: ColumnHeader[];
  className?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column, index) => (
          <th
            key={typeof column === "string" ? column : column.srOnly}
            scope="col"
            className={`py-1 font-medium ${index < columns.length - 1 ? "pr-3" : ""}`}
          >
            {typeof column === "string" ? column : <span className="sr-only">{column.srOnly}</span>}
          </th>
        ))}
      </tr>
    </thead>
  );
}
