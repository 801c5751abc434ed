// A large label file and a body that arrives whole: the label import's worst case, for its tests and
// npm run bench:labels alike.

/** Two labels (groundedness, correctness) on each of rows row-1 … row-`rows`, by alice, and `last` after them. */
export function twoLabelsPerRow(rows: number, rating: "yes" | "no", last?: string): string {
  const lines = ["request_id,metric,chunk_position,label,labelled_by"];
  for (let row = 1; row <= rows; row += 1)
    lines.push(`row-${row},groundedness,,${rating},alice`, `row-${row},correctness,,${rating},alice`);
  if (last) lines.push(last);
  return lines.join("\n");
}

/** The file as one piece, as a buffered request body arrives. */
export async function* arrivingWhole(text: string): AsyncGenerator<string> {
  yield text;
}
