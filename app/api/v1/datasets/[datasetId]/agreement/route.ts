import { datasetAgreementRoute } from "@/lib/api/routes/labelRoutes";

export const dynamic = "force-dynamic";
export const GET = datasetAgreementRoute.handler;
