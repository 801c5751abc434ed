import { startTransition, type FormEvent } from "react";

/**
 * An onSubmit handler that sends the form's data to an action (a
 * useActionState dispatcher). Forms use this instead of a function-valued
 * `action`: React renders such a form's action as a `javascript:` URL until
 * hydration, and no page carries a `javascript:` URL (the XSS checks refuse any).
 */
export function submitTo(action: (formData: FormData) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => action(formData));
  };
}
