import { html, type TemplateResult } from "lit";
import type { ScreenId } from "../app/routes.ts";

/** Names of the inline icons (drawn here; nothing is fetched). */
export type IconName =
  | ScreenId
  | "menu"
  | "search"
  | "sun"
  | "moon"
  | "monitor"
  | "plus"
  | "x"
  | "copy"
  | "check"
  | "refresh"
  | "download"
  | "trash"
  | "edit"
  | "up"
  | "down"
  | "play"
  | "logout"
  | "bolt"
  | "alert"
  | "info";

const paths: Record<IconName, string> = {
  overview: "M3 3h7v9H3zM14 3h7v5h-7zM14 12h7v9h-7zM3 16h7v5H3z",
  usage: "M3 12h4l3-8 4 16 3-8h4",
  analytics: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  leaderboard: "M8 21V11H3v10zM15 21V4H9v17zM21 21v-7h-6v7z",
  "request-logs": "M4 5h16M4 10h16M4 15h10M4 20h7",
  playground: "M4 4h16v12H8l-4 4zM8 9h8M8 12h5",
  inventory: "M3 7l9-4 9 4-9 4zM3 12l9 4 9-4M3 17l9 4 9-4",
  "inventory-keys": "M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01",
  "inventory-add": "M12 5v14M5 12h14M4 4h16v16H4z",
  "inventory-import": "M12 3v12M7 10l5 5 5-5M4 15v5h16v-5",
  providers:
    "M4 6a8 3 0 1 0 16 0a8 3 0 1 0-16 0M4 6v6c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12v6c0 1.7 3.6 3 8 3s8-1.3 8-3v-6",
  combos: "M6 3v12M6 15a3 3 0 1 0 0 6a3 3 0 1 0 0-6M18 3a3 3 0 1 0 0 6a3 3 0 1 0 0-6M18 9c0 6-12 3-12 9",
  routing: "M4 6h11a4 4 0 0 1 0 8H9a4 4 0 0 0 0 8h11M17 19l3 3-3 3",
  savers: "M12 3l7 4v5c0 4.5-3 8-7 9-4-1-7-4.5-7-9V7z",
  budgets: "M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6",
  keys: "M14 10a4 4 0 1 0-3 3.9V14l2 2h2v2h2v2h3v-3l-6-6z",
  tools: "M8 9l-4 3 4 3M16 9l4 3-4 3M13 5l-2 14",
  pricing: "M3 12V4h8l10 10-8 8zM7.5 7.5h.01",
  audit: "M9 4h6v3H9zM7 5H5v16h14V5h-2M8 11h8M8 15h8M8 19h5",
  settings:
    "M12 15a3 3 0 1 0 0-6a3 3 0 1 0 0 6M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-2.9 1.2V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-2.9-1.2l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1A1.7 1.7 0 0 0 3 14H3a2 2 0 1 1 0-4h.1A1.7 1.7 0 0 0 4.6 9a1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1A1.7 1.7 0 0 0 10 3.1V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 2.9 1.2l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1A1.7 1.7 0 0 0 21 10h.1a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.6 1z",
  menu: "M3 6h18M3 12h18M3 18h18",
  search: "M11 18a7 7 0 1 0 0-14a7 7 0 1 0 0 14M21 21l-5-5",
  sun:
    "M12 16a4 4 0 1 0 0-8a4 4 0 1 0 0 8M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4",
  moon: "M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z",
  monitor: "M3 4h18v12H3zM8 21h8M12 16v5",
  plus: "M12 5v14M5 12h14",
  x: "M6 6l12 12M18 6L6 18",
  copy: "M9 9h11v11H9zM5 15H4V4h11v1",
  check: "M5 12l5 5L20 7",
  refresh: "M21 12a9 9 0 1 1-2.6-6.4L21 8M21 3v5h-5",
  download: "M12 3v12M7 10l5 5 5-5M4 21h16",
  trash: "M3 6h18M8 6V4h8v2M6 6l1 15h10l1-15",
  edit: "M4 20h4L19 9l-4-4L4 16zM14 6l4 4",
  up: "M12 19V5M6 11l6-6 6 6",
  down: "M12 5v14M6 13l6 6 6-6",
  play: "M7 4l13 8-13 8z",
  logout: "M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9",
  bolt: "M13 2L4 14h7l-1 8 9-12h-7z",
  alert: "M12 3l10 18H2zM12 10v5M12 18h.01",
  info: "M12 22a10 10 0 1 0 0-20a10 10 0 1 0 0 20M12 11v6M12 7h.01",
};

/** An inline SVG icon that inherits the current text colour. */
export function icon(name: IconName, size = 16): TemplateResult {
  return html`
    <svg width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor"
      stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
      <path d=${paths[name]}></path>
    </svg>
  `;
}
