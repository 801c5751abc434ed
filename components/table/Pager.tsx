import Link from "next/link";
import { buttonClass } from "@/components/ui/Button";
import { PAGE_SIZES } from "@/lib/urlState/pagination";
import { withParams, type ParamValues } from "@/lib/urlState/withParams";
import { formatInteger } from "@/lib/charts/format";

type Props = {
  pathname: string;
  params: ParamValues;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  pageSizes?: readonly number[];
};

/** Server-side pagination controls; every state is a link, so views can be shared and reloaded. */
export function Pager({ pathname, params, page, pageCount, pageSize, total, pageSizes = PAGE_SIZES }: Props) {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const link = (changes: ParamValues) => withParams(pathname, params, changes);
  const button = buttonClass({ size: "sm" });
  const disabled = "rounded border border-slate-200 px-2 py-1 text-slate-400";
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-xs text-slate-600"
      data-testid="pager"
    >
      <span className="tabular-nums">
        {formatInteger(first)}–{formatInteger(last)} of {formatInteger(total)}
      </span>
      <div className="flex items-center gap-1.5">
        <span>Rows per page</span>
        {pageSizes.map((size) => (
          <Link
            key={size}
            href={link({ pageSize: size, page: 1 })}
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
      <nav aria-label="Pagination" className="flex items-center gap-1">
        {page > 1 ? (
          <Link href={link({ page: 1 })} className={button}>
            First
          </Link>
        ) : (
          <span className={disabled}>First</span>
        )}
        {page > 1 ? (
          <Link href={link({ page: page - 1 })} className={button} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={disabled}>Previous</span>
        )}
        <span className="px-2 tabular-nums">
          Page {formatInteger(page)} of {formatInteger(pageCount)}
        </span>
        {page < pageCount ? (
          <Link href={link({ page: page + 1 })} className={button} rel="next">
            Next
          </Link>
        ) : (
          <span className={disabled}>Next</span>
        )}
        {page < pageCount ? (
          <Link href={link({ page: pageCount })} className={button}>
            Last
          </Link>
        ) : (
          <span className={disabled}>Last</span>
        )}
      </nav>
    </div>
  );
}
