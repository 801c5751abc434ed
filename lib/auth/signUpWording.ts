/** What turning sign-up on means, as the users page says it (and its browser test reads it). */
export const SIGN_UP_MEANING =
  "Sign-up on: anyone who can open this URL (or any account your OpenID provider vouches for) can create an account and read every dataset, run and export as a viewer.";
