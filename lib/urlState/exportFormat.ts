import { z } from "zod";
import { firstValue, type SearchParams } from "./searchParams";

export const EXPORT_FORMATS = ["json", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `?format=json|csv` of the export routes; anything else falls back to the route's default. */
export function parseExportFormat(searchParams: SearchParams, fallback: ExportFormat): ExportFormat {
  return z.enum(EXPORT_FORMATS).catch(fallback).parse(firstValue(searchParams.format));
}
