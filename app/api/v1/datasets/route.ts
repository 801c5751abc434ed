import { listDatasetsRoute } from "@/lib/api/routes/datasetRoutes";
import { uploadDatasetRoute } from "@/lib/api/routes/uploadDatasetRoute";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = listDatasetsRoute.handler;
export const POST = uploadDatasetRoute.handler;
