import type { Role } from "./roles";

/** Who a request acts as. `local` is the admin every request acts as while sign-in is off. */
export type AuthUser = {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  local: boolean;
  /** Set when the request carried an API key: the user is its owner, acting with the key's role. */
  apiKey?: { id: string; name: string };
};
