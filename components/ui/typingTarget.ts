/**
 * Whether a key press belongs to something else than the page's shortcuts: a modifier held, or typing in a
 * field (an input, a text area, a select, editable content).
 */
export function isNotAShortcut(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return (
    event.metaKey ||
    event.ctrlKey ||
    event.altKey ||
    Boolean(target?.closest("input, textarea, select, [contenteditable=true]"))
  );
}
