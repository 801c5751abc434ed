import { roleAtLeast, type Role } from "./roles";

/**
 * The policy, as data: each action a request can take, and the weakest role
 * allowed to take it. Guards (lib/auth/guard.ts) look actions up here, so
 * changing who may do what is a one-line edit, and the role-matrix test reads
 * the same table.
 */
export const ACTION_MIN_ROLE = {
  // Reading: pages, progress, exports.
  "data.read": "viewer",
  export: "viewer",
  // One's own API keys (their role is held to one's own: lib/auth/apiKeys.ts).
  "apikeys.own": "viewer",
  // Doing work: uploads and runs.
  "dataset.upload": "runner",
  "run.start": "runner",
  "run.cancel": "runner",
  "run.rejudge": "runner",
  "run.resume": "runner",
  "run.estimate": "runner",
  "labels.write": "runner",
  "judge.align": "runner",
  // Changing or removing what others made, and running the server.
  "run.update": "admin",
  "run.delete": "admin",
  "dataset.rename": "admin",
  "dataset.delete": "admin",
  // Setting the deciding label where people's labels differ.
  "labels.adjudicate": "admin",
  "users.manage": "admin",
  "settings.manage": "admin",
} as const satisfies Record<string, Role>;

export type Action = keyof typeof ACTION_MIN_ROLE;

/**
 * Actions no API key may take, whatever its role, on any route: managing accounts, server settings and keys.
 * A key leaks with the CI job that holds it; one that could create a user, reset a password or make another
 * key would turn a revocable, expiring credential into lasting access. /api/v1 has no such operation, and the
 * guard refuses them to a key even if a route were added.
 */
export const KEYLESS_ACTIONS: ReadonlySet<Action> = new Set<Action>(["users.manage", "settings.manage", "apikeys.own"]);

export const ACTIONS = Object.keys(ACTION_MIN_ROLE) as Action[];

/** What an action is called in a refusal message ("Your role (viewer) cannot start runs."). */
const ACTION_PHRASE: Record<Action, string> = {
  "data.read": "view this page",
  export: "export results",
  "apikeys.own": "manage API keys",
  "dataset.upload": "upload datasets",
  "run.start": "start runs",
  "run.cancel": "cancel runs",
  "run.rejudge": "re-judge runs",
  "run.resume": "resume runs",
  "run.estimate": "estimate run costs",
  "labels.write": "label rows",
  "judge.align": "align judges",
  "labels.adjudicate": "decide between people's labels",
  "run.update": "edit runs",
  "run.delete": "delete runs",
  "dataset.rename": "rename datasets",
  "dataset.delete": "delete datasets",
  "users.manage": "manage users",
  "settings.manage": "change settings",
};

export function minimumRoleFor(action: Action): Role {
  return ACTION_MIN_ROLE[action];
}

export function roleCan(role: Role, action: Action): boolean {
  return roleAtLeast(role, minimumRoleFor(action));
}

export function describeAction(action: Action): string {
  return ACTION_PHRASE[action];
}
