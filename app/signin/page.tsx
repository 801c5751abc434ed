import type { Metadata } from "next";
import { InsecureCookieNotice } from "@/components/auth/InsecureCookieNotice";
import { OidcSignInButton } from "@/components/auth/OidcSignInButton";
import { SignInForm } from "@/components/auth/SignInForm";
import { SignOutControl } from "@/components/auth/SignOutControl";
import { SignUpForm } from "@/components/auth/SignUpForm";
import { CardFrame } from "@/components/ui/Card";
import { appAuthMode, appUsesSecureCookies } from "@/lib/auth/appAuth";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwordPolicy";
import { readOidcConfig, type OidcConfig } from "@/lib/auth/oidcConfig";
import { describeAction, minimumRoleFor, type Action } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/requireRole";
import { safeNextPath } from "@/lib/auth/safeRedirect";
import { getDb } from "@/lib/db/client";
import { isSignUpEnabled } from "@/lib/db/accounts/settingsQueries";
import { parseSignInQuery } from "@/lib/urlState/signInQuery";
import type { SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

/** Better Auth's error codes when an OpenID Connect sign-in comes back refused, in words. */
const OIDC_ERRORS: Record<string, string> = {
  signup_disabled: "There is no account for you yet, and sign-up is off. Ask an admin for an account.",
  signup_domain_not_allowed:
    "There is no account for you yet, and sign-up here is open only to other email domains. Ask an admin for an account.",
  account_not_linked:
    "An account with your email exists, but nobody has vouched that it is yours, so single sign-on cannot use it. Sign in with its password, or ask an admin.",
  oidc_unavailable: "Single sign-on is not reachable right now. Try again, or sign in with your password.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = parseSignInQuery(await searchParams);
  const next = safeNextPath(query.next);
  const mode = appAuthMode();
  if (mode.kind !== "on")
    return (
      <Panel title="Sign-in is off">
        <p className="text-sm text-slate-600" data-testid="auth-off">
          {mode.kind === "off"
            ? `This server listens on ${mode.host} only, so everyone who reaches it is on this machine and acts as the local admin. To share Assay with a team, set ASSAY_AUTH_SECRET and create accounts (docs/security.md, “Accounts and roles”).`
            : mode.message}
        </p>
      </Panel>
    );

  const [user, signUpOpen] = await Promise.all([currentUser(), isSignUpEnabled(getDb())]);
  const oidc = oidcOrNull();
  const error = query.error ? (OIDC_ERRORS[query.error] ?? "Sign-in did not complete. Try again.") : null;
  return (
    <Panel title="Sign in to Assay">
      {user && (
        <div className="mb-4 rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" role="status">
          {query.denied ? (
            <p>
              You are signed in as {user.email} ({user.role}), who cannot {describeAction(query.denied as Action)}: that
              needs {minimumRoleFor(query.denied as Action)}. Sign in as someone else, or ask an admin.
            </p>
          ) : (
            <p>You are signed in as {user.email}.</p>
          )}
          <div className="mt-2">
            <SignOutControl />
          </div>
        </div>
      )}
      <InsecureCookieNotice secureCookies={appUsesSecureCookies()} />
      {error && (
        <p role="alert" className="mb-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <SignInForm next={next} />
      {oidc && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <OidcSignInButton name={oidc.name} next={next} />
        </div>
      )}
      {signUpOpen && (
        <details className="mt-4 border-t border-slate-100 pt-4">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">No account? Create one</summary>
          <div className="mt-3">
            <SignUpForm minPasswordLength={MIN_PASSWORD_LENGTH} />
          </div>
        </details>
      )}
    </Panel>
  );
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto mt-10 max-w-sm">
      <CardFrame padding="lg">
        <h1 className="mb-4 text-lg font-semibold tracking-tight">{title}</h1>
        {children}
      </CardFrame>
    </div>
  );
}

/** A half-configured provider is logged at start-up by the server; the page just leaves the button out. */
function oidcOrNull(): OidcConfig | null {
  try {
    return readOidcConfig(process.env);
  } catch {
    return null;
  }
}
