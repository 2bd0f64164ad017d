/** Small readers shared by the dashboard's edit forms. */

/** The current text of the input, select or textarea an event came from. */
export function inputValue(event: Event): string {
  return (event.target as HTMLInputElement).value;
}

/** Splits a comma- or newline-separated list typed into a field, dropping blanks. */
export function splitList(text: string): string[] {
  return text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
}
