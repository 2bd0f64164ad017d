/** Parsing and building the app's URLs; the screen list itself is shared with the server. */
import { type ScreenId, SCREENS, UI_BASE } from "../../../src/dashboard/screens.ts";

export {
  NAV_GROUPS,
  type NavGroup,
  type ScreenId,
  type ScreenInfo,
  SCREENS,
  screenTag,
  UI_BASE,
} from "../../../src/dashboard/screens.ts";

/** A parsed location inside the app. */
export interface AppLocation {
  readonly screen: ScreenId;
  readonly params: URLSearchParams;
}

/** Looks a screen up by id. */
export function screenInfo(id: ScreenId): typeof SCREENS[number] {
  return SCREENS.find((s) => s.id === id) ?? SCREENS[0];
}

/** Path of a screen (Overview is the bare base path). */
export function screenPath(id: ScreenId, params?: Record<string, string>): string {
  const path = id === "overview" ? UI_BASE : `${UI_BASE}/${id}`;
  const query = params ? new URLSearchParams(params).toString() : "";
  return query ? `${path}?${query}` : path;
}

/** Parses a pathname + search; unknown slugs are null so the shell can show "not found". */
export function parseLocation(pathname: string, search: string): AppLocation | null {
  const params = new URLSearchParams(search);
  const rest = pathname.startsWith(UI_BASE) ? pathname.slice(UI_BASE.length) : pathname;
  const slug = rest.replace(/^\/+|\/+$/g, "").split("/")[0] ?? "";
  if (slug === "" || slug === "overview") return { screen: "overview", params };
  const found = SCREENS.find((s) => s.id === slug);
  return found ? { screen: found.id, params } : null;
}
