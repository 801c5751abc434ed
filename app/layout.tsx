import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SignOutControl } from "@/components/auth/SignOutControl";
import { JudgeBadge } from "@/components/layout/JudgeBadge";
import { NavLink } from "@/components/layout/NavLink";
import { roleCan } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/requireRole";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Assay", template: "%s · Assay" },
  description: "Evaluate LLM and RAG applications with LLM judges.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  // While sign-in is off there are no accounts to manage, so the header stays as it always was.
  const managesUsers = user !== null && !user.local && roleCan(user.role, "users.manage");
  // The judge model and the endpoint's host are for people with an account (or the local admin while sign-in is
  // off), not for whoever opens the sign-in page.
  const showsJudge = user !== null;
  return (
    <html lang="en">
      <body className="min-h-screen">
        <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
          <div className="mx-auto flex h-12 max-w-7xl items-center gap-6 px-4">
            <a href="/datasets" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
              <span
                aria-hidden
                className="grid h-6 w-6 place-items-center rounded bg-indigo-600 text-xs font-bold text-white"
              >
                A
              </span>
              Assay
            </a>
            <nav className="flex items-center gap-1 text-sm">
              <NavLink href="/datasets">Datasets</NavLink>
              <NavLink href="/runs">Runs</NavLink>
              <NavLink href="/compare">Compare</NavLink>
              {managesUsers && <NavLink href="/admin/users">Users</NavLink>}
              {user !== null && !user.local && <NavLink href="/settings/keys">API keys</NavLink>}
            </nav>
            <div className="ml-auto flex items-center gap-4">
              {showsJudge && <JudgeBadge />}
              <SignOutControl />
            </div>
          </div>
        </header>
        <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
      </body>
    </html>
  );
}
