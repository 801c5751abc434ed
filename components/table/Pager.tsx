import Link from "next/link";
import { buttonClass } from "@/components/ui/Button";
import { PAGE_SIZES } from "@/lib/contract/pagination";
import { withParams, type ParamValues } from "@/lib/urlState/withParams";
import { formatInteger } from "@/lib/charts/format";
import type { PageCursor } from "@/lib/db/pagination";

type Props = {
  pathname: string;
  params: ParamValues;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  pageSizes?: readonly number[];
  /** Appended to every link (#rows): the next page opens with the table in view, not at the top of the page. */
  hash?: string;
  /**
   * Which of a table's pagers this is, when it has one above and one below: its
   * controls are marked so the focus comes back to the one used (useKeepFocus),
   * and the one above shows only the row count and Previous / Next.
   */
  place?: "top" | "bottom";
  /**
   * A table read by key (the run's rows): Previous and Next carry the row keys
   * beside the page number, so the next page is read from there rather than
   * counted to (lib/db/runs/runRowKeyset).
   */
  cursor?: PageCursor;
};

/** Server-side pagination controls; every state is a link, so views can be shared and reloaded. */
export function Pager({
  pathname,
  params,
  page,
  pageCount,
  pageSize,
  total,
  pageSizes = PAGE_SIZES,
  hash = "",
  place,
  cursor,
}: Props) {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const link = (changes: ParamValues) => withParams(pathname, params, changes) + hash;
  const focusKey = (control: string) => (place ? { "data-focus-key": `pager-${place}-${control}` } : {});
  const button = buttonClass({ size: "sm" });
  const disabled = "rounded border border-slate-200 px-2 py-1 text-slate-400";
  return (
    <div
      className={`flex flex-wrap items-center justify-between gap-2 border-slate-200 px-3 py-2 text-xs text-slate-600 ${place === "top" ? "border-b" : "border-t"}`}
      data-testid={place === "top" ? "pager-top" : "pager"}
    >
      <span className="tabular-nums" data-testid="pager-range">
        {formatInteger(first)}–{formatInteger(last)} of {formatInteger(total)}
        {place === "top" && ` ${total === 1 ? "row" : "rows"}`}
      </span>
      {place !== "top" && (
        <div className="flex items-center gap-1.5">
          <span>Rows per page</span>
          {pageSizes.map((size) => (
            <Link
              prefetch={false}
              key={size}
              href={link({ pageSize: size, page: 1 })}
              {...focusKey(`size${size}`)}
              className={
                size === pageSize
                  ? "rounded bg-slate-800 px-1.5 py-0.5 text-white"
                  : "rounded px-1.5 py-0.5 hover:bg-slate-100"
              }
            >
              {size}
            </Link>
          ))}
        </div>
      )}
      <nav
        aria-label={place === "top" ? "Pagination (above the table)" : "Pagination"}
        className="flex items-center gap-1"
        {...(place ? { "data-focus-key": `pager-${place}` } : {})}
        // The focus lands here when the control used is gone from the new page (Next on the last one).
        tabIndex={place ? -1 : undefined}
      >
        {place !== "top" &&
          (page > 1 ? (
            <Link prefetch={false} href={link({ page: 1 })} className={button} {...focusKey("first")}>
              First
            </Link>
          ) : (
            <span className={disabled}>First</span>
          ))}
        {page > 1 ? (
          <Link
            prefetch={false}
            href={link({ page: page - 1, ...(cursor ? { before: cursor.before } : {}) })}
            className={button}
            rel="prev"
            {...focusKey("previous")}
          >
            Previous
          </Link>
        ) : (
          <span className={disabled}>Previous</span>
        )}
        <span className="px-2 tabular-nums">
          Page {formatInteger(page)} of {formatInteger(pageCount)}
        </span>
        {page < pageCount ? (
          <Link
            prefetch={false}
            href={link({ page: page + 1, ...(cursor ? { after: cursor.after } : {}) })}
            className={button}
            rel="next"
            {...focusKey("next")}
          >
            Next
          </Link>
        ) : (
          <span className={disabled}>Next</span>
        )}
        {place !== "top" &&
          (page < pageCount ? (
            <Link prefetch={false} href={link({ page: pageCount })} className={button} {...focusKey("last")}>
              Last
            </Link>
          ) : (
            <span className={disabled}>Last</span>
          ))}
      </nav>
    </div>
  );
}
