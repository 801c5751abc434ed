import { signInWithOidc } from "@/app/actions/signInWithOidc";
import { Button } from "@/components/ui/Button";

/** Starts the OpenID Connect flow (a server action answers with a redirect to the provider). */
export function OidcSignInButton({ name, next }: { name: string; next: string }) {
  return (
    <form action={signInWithOidc}>
      <input type="hidden" name="next" value={next} />
      <Button size="lg" className="w-full">
        Sign in with {name}
      </Button>
    </form>
  );
}
