import { getPairwiseRoute } from "@/lib/api/routes/pairwiseRoutes";

export const dynamic = "force-dynamic";
export const GET = getPairwiseRoute.handler;
