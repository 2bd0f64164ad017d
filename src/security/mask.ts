/** Shows a secret as its first three and last four characters (`sk-…abcd`); short ones fully hidden. */
export function maskSecret(secret: string): string {
  if (secret === "") return "";
  if (secret.length < 12) return "…" + "•".repeat(4);
  return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
