import { serveClientBundle } from "@/lib/api/clientBundleRoute";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const GET = serveClientBundle;
