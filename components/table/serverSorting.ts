import type { SortingState, Updater } from "@tanstack/react-table";

/**
 * The useTable options of a server-sorted table: the sort comes from the URL,
 * and a header click only asks for a new URL (the server sorts the page).
 * Spread into useTable({ ...serverSorting(...) }).
 */
export function serverSorting(
  current: { sort: string; dir: "asc" | "desc" },
  navigate: (sort: string, dir: "asc" | "desc") => void,
) {
  const sorting: SortingState = [{ id: current.sort, desc: current.dir === "desc" }];
  return {
    manualSorting: true as const,
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = (typeof updater === "function" ? updater(sorting) : updater)[0];
      if (next) navigate(next.id, next.desc ? "desc" : "asc");
    },
  };
}
