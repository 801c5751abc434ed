import { getDatasetRoute } from "@/lib/api/routes/datasetRoutes";

export const dynamic = "force-dynamic";
export const GET = getDatasetRoute.handler;
