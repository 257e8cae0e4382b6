import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as englishDictionary, translations } from "@zxcvbn-ts/language-en";
import { LONG_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-limits.ts";

/**
 * The one rule for a new password, wherever it is set (sign-up, a change, the admin command line). Server
 * only: zxcvbn's dictionaries are megabytes, built once on first use.
 */

/** zxcvbn's score (0–4) a password shorter than LONG_PASSWORD_LENGTH must reach: 10^8 guesses or more. */
const MIN_SCORE = 3;

let zxcvbn: ZxcvbnFactory | null = null;
let commonPasswords: ReadonlySet<string> | null = null;

function strength(): { zxcvbn: ZxcvbnFactory; commonPasswords: ReadonlySet<string> } {
  zxcvbn ??= new ZxcvbnFactory({ translations, graphs: adjacencyGraphs, dictionary: { ...commonDictionary, ...englishDictionary } });
  commonPasswords ??= new Set(commonDictionary["passwords-common"]);
  return { zxcvbn, commonPasswords };
}

/** One unit repeated ("aaaaaaaaaaaa", "abcabcabcabc"), or a run of consecutive characters ("abcdefghijkl", "987654321"). */
function isPattern(password: string): boolean {
  if (/^([\s\S]+?)\1+$/u.test(password)) return true;
  const codes = [...password].map((c) => c.codePointAt(0)!);
  const step = codes[1]! - codes[0]!;
  return Math.abs(step) === 1 && codes.every((code, i) => i === 0 || code - codes[i - 1]! === step);
}

/**
 * Why `password` cannot be the password of the account with `email`, or null: the reason to show the user.
 * At least MIN_PASSWORD_LENGTH characters, and either LONG_PASSWORD_LENGTH or more and not a common password
 * (nor one character or pattern repeated, nor a run like "abcdef…"), or zxcvbn's score of MIN_SCORE or more.
 * Never the address, nor containing its name (three characters or more): the first guesses of anyone who
 * knows the address.
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

  const { zxcvbn, commonPasswords } = strength();
  if (commonPasswords.has(lower)) return "This is one of the most common passwords: attackers try it first. Choose another.";
  if (isPattern(password)) return "A repeated character, pattern or run (like “aaaa” or “abcd”) is easy to guess. Choose another.";
  if (password.length >= LONG_PASSWORD_LENGTH) return null;
  // Short passwords only: zxcvbn's time grows quickly with length, and longer ones need not score.
  const result = zxcvbn.check(password, [name]);
  if (result.score >= MIN_SCORE) return null;
  const why = result.feedback.warning ?? "This password is easy to guess.";
  return `${why} Use ${LONG_PASSWORD_LENGTH} characters or more (a few unrelated words make a good one), or a less predictable one.`;
}
