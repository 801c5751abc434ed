import { z } from "zod";

/**
 * The allowed email-domain list for sign-up: empty means any domain. An
 * address is allowed when the part after its last "@" equals a listed domain
 * (exactly: list subdomains separately).
 */
export const MAX_ALLOWED_DOMAINS = 50;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

export const domainSchema = z.string().regex(DOMAIN);

/** Reads a list an admin typed (commas, spaces or lines between domains; a leading "@" is dropped). */
export function parseDomainList(text: string): { ok: true; domains: string[] } | { ok: false; message: string } {
  const items = text
    .split(/[\s,;]+/)
    .map((item) => item.trim().toLowerCase().replace(/^@/, ""))
    .filter(Boolean);
  const invalid = items.find((item) => !domainSchema.safeParse(item).success);
  if (invalid !== undefined)
    return {
      ok: false,
      message: `“${invalid.slice(0, 80)}” is not a domain name. Write domains like example.com, without a name before @ or https://.`,
    };
  const domains = [...new Set(items)];
  if (domains.length > MAX_ALLOWED_DOMAINS)
    return { ok: false, message: `List at most ${MAX_ALLOWED_DOMAINS} domains.` };
  return { ok: true, domains };
}

export function isEmailDomainAllowed(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.includes(domain);
}

export function domainRefusalMessage(domains: readonly string[]): string {
  return `Sign-up here is open only to email addresses at ${domains.join(", ")}. Ask an admin for an account.`;
}
