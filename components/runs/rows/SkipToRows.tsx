"use client";

/**
 * The first stop of the run page's Tab order, shown when focused: it brings
 * the rows table into view and puts the focus on its filter summary, so the
 * next Tabs reach the filter's chips and then the rows, not the cards and
 * charts in between (which took 77–98 Tabs on a run with 18 metrics).
 */
export function SkipToRows() {
  return (
    <a
      href="#rows"
      data-testid="skip-to-rows"
      onClick={(event) => {
        const summary = document.querySelector<HTMLElement>("[data-testid=row-filter-summary]");
        if (!summary) return; // the plain #rows jump still scrolls there
        event.preventDefault();
        document.getElementById("rows")?.scrollIntoView({ block: "start" });
        history.replaceState(history.state, "", "#rows");
        summary.focus({ preventScroll: true });
      }}
      className="sr-only rounded bg-indigo-700 px-2 py-1 text-sm text-white focus:not-sr-only focus:absolute focus:z-30"
    >
      Skip to the rows
    </a>
  );
}
