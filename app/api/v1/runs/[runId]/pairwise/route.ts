import { startPairwiseRoute } from "@/lib/api/routes/pairwiseRoutes";

export const dynamic = "force-dynamic";
export const POST = startPairwiseRoute.handler;
