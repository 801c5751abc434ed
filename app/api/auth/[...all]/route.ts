import { appAuthMode, getAuth } from "@/lib/auth/appAuth";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Better Auth's endpoints (sign-in, sign-out, session, OpenID Connect callback, admin API) under /api/auth. */
async function handleAuthRequest(request: Request): Promise<Response> {
  if (appAuthMode().kind !== "on")
    return Response.json(
      { error: "Sign-in is off on this server: it listens on loopback only and every request acts as a local admin." },
      { status: 404, headers: { "cache-control": "no-store" } },
    );
  return getAuth().handler(request);
}

export { handleAuthRequest as GET, handleAuthRequest as POST };
