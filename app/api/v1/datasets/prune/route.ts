import { pruneDatasetsRoute } from "@/lib/api/routes/pruneDatasetsRoute";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const POST = pruneDatasetsRoute.handler;
