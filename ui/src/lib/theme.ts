/** Theme choice persisted in localStorage; "system" follows the OS colour scheme. */
export type ThemeChoice = "light" | "dark" | "system";

/** localStorage key holding the theme choice. */
export const THEME_STORAGE_KEY = "gw-theme";

const CHOICES: readonly ThemeChoice[] = ["light", "dark", "system"];

/** Reads the stored choice; anything unknown (or storage being blocked) means "system". */
export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return CHOICES.find((c) => c === value) ?? "system";
  } catch {
    return "system";
  }
}

/** Resolves a choice to the concrete scheme to paint. */
export function resolveTheme(choice: ThemeChoice): "light" | "dark" {
  if (choice !== "system") return choice;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Paints the resolved scheme on the document root. */
export function applyTheme(choice: ThemeChoice): void {
  document.documentElement.dataset.theme = resolveTheme(choice);
  document.documentElement.dataset.themeChoice = choice;
}

/** Stores and applies a choice. */
export function setTheme(choice: ThemeChoice): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage can be disabled; the theme still applies for this page.
  }
  applyTheme(choice);
}

/** The next choice in the light → dark → system cycle. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return CHOICES[(CHOICES.indexOf(choice) + 1) % CHOICES.length];
}

/** Re-applies "system" when the OS scheme changes. */
export function followSystemTheme(): void {
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    if (storedTheme() === "system") applyTheme("system");
  });
}
