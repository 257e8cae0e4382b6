/** The one rule for a new password, wherever it is set (sign-up, a change): the server's word, and the pages'. */

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * Why `password` cannot be the password of the account with `email`, or null. It must be long enough, and not
 * be or contain the address's name (the part before @, of three characters or more): the first guesses of
 * anyone who knows the address.
 */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const address = email.trim().toLowerCase();
  const name = address.slice(0, Math.max(0, address.lastIndexOf("@")));
  const lower = password.toLowerCase();
  // Also without dots, dashes and the like: john.smith's "JohnSmith1!" is as easily guessed.
  const letters = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, "");
  const contains = (within: string, part: string) => part.length >= 3 && within.includes(part);
  if (lower === address || contains(lower, name) || contains(letters(lower), letters(name))) return "Choose a password that does not contain your email address.";
  return null;
}
