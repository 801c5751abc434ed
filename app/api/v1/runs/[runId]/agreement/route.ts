import { runAgreementRoute } from "@/lib/api/routes/agreementRoute";

export const dynamic = "force-dynamic";
export const GET = runAgreementRoute.handler;
