/**
 * The clause every prompt saver appends: brevity must never cost safety or exactness.
 */
export const SAFETY_CLAUSE =
  "These style rules never apply to safety or exactness: write security warnings, " +
  "confirmations of irreversible or destructive actions, and multi-step instructions whose order matters " +
  "in full, normal sentences. Reply in the user's language. Never abbreviate, shorten or paraphrase code, " +
  "file paths, commands, error messages or URLs; reproduce them exactly.";
