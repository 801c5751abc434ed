import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authRoute } from "@/app/api/auth/[...all]/route";
import { appAuthMode, getAuth } from "@/lib/auth/appAuth";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { AuthRefusal } from "@/lib/auth/guard";
import { checkRole, currentUser, requireRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { createTempDb } from "../support/tempDb";
import { cookieFrom, TEST_SECRET } from "./authKit";

// The app's own wiring: the mode from the environment, Better Auth on getDb(),
// and the /api/auth route handler, as a server process with a secret has them.
const BASE = "http://127.0.0.1:3999";
let temp: Awaited<ReturnType<typeof createTempDb>>;

beforeAll(async () => {
  temp = await createTempDb();
  process.env.DATABASE_URL = temp.url;
  process.env.ASSAY_AUTH_SECRET = TEST_SECRET;
  process.env.ASSAY_BASE_URL = BASE;
  await createUserAccount(getAuth(), getDb(), {
    email: "viewer@example.com",
    name: "Vera",
    password: "viewer password 1234",
    role: "viewer",
  });
});

afterAll(async () => {
  await getDb().$disconnect();
  await temp?.cleanup();
});

async function signInThroughRoute(email: string, password: string): Promise<Headers> {
  const response = await authRoute(
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(response.status).toBe(200);
  return new Headers({ cookie: cookieFrom(response) });
}

describe("requireRole with the app's auth", () => {
  it("is on because ASSAY_AUTH_SECRET is set", () => {
    expect(appAuthMode().kind).toBe("on");
  });

  it("refuses a viewer's run.start with a 403 AuthRefusal, and lets them export", async () => {
    const headers = await signInThroughRoute("viewer@example.com", "viewer password 1234");
    const refusal = await requireRole("run.start", headers).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AuthRefusal);
    expect(refusal).toMatchObject({ status: 403, message: expect.stringContaining("cannot start runs") });
    expect(await requireRole("export", headers)).toMatchObject({ email: "viewer@example.com", role: "viewer" });
    expect(await currentUser(headers)).toMatchObject({ role: "viewer", local: false });
  });

  it("refuses a request without a session with 401", async () => {
    expect(await checkRole("export", new Headers())).toEqual({
      ok: false,
      status: 401,
      message: "Sign in to export results.",
    });
    expect(await currentUser(new Headers())).toBeNull();
  });
});
