/**
 * A viewer's dashboard is read-only: the server refuses every change from a viewer (403), so the screens
 * disable the controls that would change something and say why, instead of offering buttons that fail.
 */

/** Why a control is disabled for a viewer. */
export const VIEWER_REASON =
  "Read-only: this dashboard account is a viewer. It can look at every screen but not change, export or read request bodies.";

/**
 * Disables the buttons under `root` that act (everything except those marked `data-read` and a dialog's
 * plain Cancel / Close), and makes provider cards inert; each says `reason`. Runs after every render, so
 * buttons a render re-enabled are locked again.
 */
export function lockControls(root: ParentNode, reason: string): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button")) {
    const dismisses = button.slot === "footer" && !/\b(primary|danger|danger-solid)\b/.test(button.className);
    if (button.hasAttribute("data-read") || dismisses) continue;
    button.disabled = true;
    button.title = reason;
  }
  for (const card of root.querySelectorAll<HTMLElement>("gw-provider-card")) {
    card.inert = true;
    card.title = reason;
  }
}
