/** Typed events that flow up from elements to the shell (properties go down, events come up). */
import type { ProviderView } from "../../../src/features/providers/contract.ts";

/** Asks the shell to navigate to an in-app path. */
export class NavigateEvent extends Event {
  /** Event name. */
  static readonly type = "gw-navigate";
  constructor(readonly path: string) {
    super(NavigateEvent.type, { bubbles: true, composed: true });
  }
}

/** Kind of a toast message. */
export type ToastKind = "success" | "error" | "info";

/** Asks the shell to show a short message. */
export class ToastEvent extends Event {
  /** Event name. */
  static readonly type = "gw-toast";
  constructor(readonly message: string, readonly kind: ToastKind = "success") {
    super(ToastEvent.type, { bubbles: true, composed: true });
  }
}

/** A value picked in a control (segmented buttons, pagers, palettes). */
export class ValueEvent<T> extends Event {
  /** Event name. */
  static readonly type = "gw-value";
  constructor(readonly value: T) {
    super(ValueEvent.type, { bubbles: true, composed: true });
  }
}

/** A dialog was closed (by the user or programmatically). */
export class CloseEvent extends Event {
  /** Event name. */
  static readonly type = "gw-close";
  constructor() {
    super(CloseEvent.type, { bubbles: true, composed: true });
  }
}

/** Something a part of a screen manages changed: the screen reads its state again. */
export class ChangedEvent extends Event {
  /** Event name. */
  static readonly type = "gw-changed";
  constructor() {
    super(ChangedEvent.type, { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    "gw-changed": ChangedEvent;
    "gw-navigate": NavigateEvent;
    "gw-toast": ToastEvent;
    "gw-value": ValueEvent<unknown>;
    "gw-close": CloseEvent;
  }
}

/** Shell-level actions requested by the top bar or the palette. */
export type ShellAction = "toggle-menu" | "open-palette" | "sign-out";

/** Asks the shell to perform a shell-level action. */
export class ShellActionEvent extends Event {
  /** Event name. */
  static readonly type = "gw-shell-action";
  constructor(readonly action: ShellAction) {
    super(ShellActionEvent.type, { bubbles: true, composed: true });
  }
}

/** The user picked a theme. */
export class ThemeEvent extends Event {
  /** Event name. */
  static readonly type = "gw-theme";
  constructor(readonly choice: "light" | "dark" | "system") {
    super(ThemeEvent.type, { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    "gw-shell-action": ShellActionEvent;
    "gw-theme": ThemeEvent;
  }
}

/** What a provider card asks its screen to do. */
export type ProviderAction = "test" | "edit" | "toggle" | "delete" | "connect";

/** A provider card's button was pressed; the screen talks to the API. */
export class ProviderActionEvent extends Event {
  /** Event name. */
  static readonly type = "gw-provider-action";
  constructor(readonly action: ProviderAction, readonly provider: ProviderView) {
    super(ProviderActionEvent.type, { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    "gw-provider-action": ProviderActionEvent;
  }
}

/** Models picked from an upstream's list, to add to a provider's models. */
export class ModelsPickedEvent extends Event {
  /** Event name. */
  static readonly type = "gw-models-picked";
  constructor(readonly models: readonly string[]) {
    super(ModelsPickedEvent.type, { bubbles: true, composed: true });
  }
}

/** Asks the form to fetch the upstream's model list. */
export class FetchModelsEvent extends Event {
  /** Event name. */
  static readonly type = "gw-fetch-models";
  constructor() {
    super(FetchModelsEvent.type, { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    "gw-models-picked": ModelsPickedEvent;
    "gw-fetch-models": FetchModelsEvent;
  }
}
