/**
 * SQL in lib/db is written once with SQLite's placeholders (`?` in order, or
 * `@name`); PostgreSQL numbers them (`$1`). This rewrites the text, skipping
 * string literals and quoted identifiers, and says which named value each
 * number takes. Results are cached per text: the text of a statement is fixed
 * by construction (boundParameters.ts), so the cache stays small.
 */
export type PostgresStatement = { text: string; names: string[] | null; count: number };

const cache = new Map<string, PostgresStatement>();

export function toPostgresPlaceholders(sql: string): PostgresStatement {
  let cached = cache.get(sql);
  if (!cached) cache.set(sql, (cached = rewrite(sql)));
  return cached;
}

function rewrite(sql: string): PostgresStatement {
  let text = "";
  let positional = 0;
  const names: string[] = [];
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i];
    if (char === "'" || char === '"') {
      const end = sql.indexOf(char, i + 1);
      if (end < 0) throw new Error(`unterminated ${char} in SQL: ${sql.slice(i, i + 60)}`);
      text += sql.slice(i, end + 1);
      i = end;
    } else if (char === "?") {
      positional += 1;
      text += `$${positional}`;
    } else if (char === "@" && /^[A-Za-z_]/.test(sql.slice(i + 1, i + 2))) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))?.[0] ?? "";
      let index = names.indexOf(name);
      if (index < 0) index = names.push(name) - 1;
      text += `$${index + 1}`;
      i += name.length;
    } else {
      text += char;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error("a statement mixes ? and @name placeholders");
  return { text, names: names.length > 0 ? names : null, count: positional || names.length };
}
