import { exportLabelsRoute, importLabelsRoute } from "@/lib/api/routes/labelRoutes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = exportLabelsRoute.handler;
export const POST = importLabelsRoute.handler;
