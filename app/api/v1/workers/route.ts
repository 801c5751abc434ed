import { listWorkersRoute } from "@/lib/api/routes/workerRoutes";

export const dynamic = "force-dynamic";
export const GET = listWorkersRoute.handler;
