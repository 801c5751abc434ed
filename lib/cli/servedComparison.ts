import type { z } from "zod";
import type { comparisonSchema } from "@/lib/api/compareSchemas";

/** A comparison as the server's API answers it (GET /api/v1/compare): what the gate decides and reports on. */
export type ServedComparison = z.output<typeof comparisonSchema>;
export type MetricStatistics = ServedComparison["statistics"][number];
