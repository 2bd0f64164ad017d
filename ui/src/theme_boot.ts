/** Runs before first paint (a classic script in <head>) so a stored dark theme never flashes light. */
import { applyTheme, followSystemTheme, storedTheme } from "./lib/theme.ts";

applyTheme(storedTheme());
followSystemTheme();
