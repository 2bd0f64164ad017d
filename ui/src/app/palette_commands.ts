/** What the command palette offers: every screen of the shared list, then the shell's actions. */
import type { PaletteCommand } from "../components/gw_palette.ts";
import { SCREENS } from "./routes.ts";

/** Actions the palette can run besides jumping to a screen. */
export const ACTIONS: readonly PaletteCommand[] = [
  { id: "create-key", title: "Create API key", group: "Actions", icon: "keys", keywords: "new token" },
  {
    id: "create-provider",
    title: "Add provider",
    group: "Actions",
    icon: "providers",
    keywords: "new upstream create",
  },
  {
    id: "create-combo",
    title: "Create combo",
    group: "Actions",
    icon: "combos",
    keywords: "new fallback group",
  },
  { id: "create-budget", title: "Set a budget", group: "Actions", icon: "budgets", keywords: "new limit" },
  {
    id: "add-price",
    title: "Add pricing override",
    group: "Actions",
    icon: "pricing",
    keywords: "price new",
  },
  {
    id: "clear-cooldowns",
    title: "Clear all cooldowns",
    group: "Actions",
    icon: "routing",
    keywords: "reset accounts",
  },
  {
    id: "export-logs",
    title: "Export request logs (JSON)",
    group: "Actions",
    icon: "download",
    keywords: "download",
  },
  {
    id: "export-config",
    title: "Export configuration (YAML)",
    group: "Actions",
    icon: "download",
    keywords: "backup",
  },
  {
    id: "toggle-theme",
    title: "Toggle theme",
    group: "Actions",
    icon: "moon",
    keywords: "dark light mode appearance",
  },
  { id: "theme-light", title: "Use light theme", group: "Actions", icon: "sun", keywords: "appearance" },
  { id: "theme-dark", title: "Use dark theme", group: "Actions", icon: "moon", keywords: "appearance" },
  {
    id: "theme-system",
    title: "Use system theme",
    group: "Actions",
    icon: "monitor",
    keywords: "appearance auto",
  },
  { id: "sign-out", title: "Sign out", group: "Actions", icon: "logout", keywords: "logout" },
];
/** Every palette command: "go:<screen>" for each screen in sidebar order, then the actions. */
export const PALETTE_COMMANDS: readonly PaletteCommand[] = [
  ...SCREENS.map((s): PaletteCommand => ({
    id: `go:${s.id}`,
    title: s.title,
    group: "Go to",
    icon: s.id,
    keywords: `${s.group} ${s.keywords}`,
    hint: s.group,
  })),
  ...ACTIONS,
];
