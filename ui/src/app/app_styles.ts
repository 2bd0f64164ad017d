/** Layout of the shell: sidebar column, top bar and content; below 900px the sidebar becomes a drawer. */
import { css } from "lit";

/** Styles of <gw-app>. */
export const appStyles = css`
  :host {
    display: block;
    min-height: 100vh;
  }
  .layout {
    display: grid;
    grid-template-columns: var(--gw-sidebar-width) minmax(0, 1fr);
    min-height: 100vh;
  }
  /* The column spans the whole page and the sidebar sticks inside it, so the sidebar fills the window
    wherever the page is scrolled and the column's surface reaches the bottom of long pages. */
  .side {
    background: var(--gw-surface);
    box-shadow: inset -1px 0 var(--gw-border);
  }
  gw-sidebar {
    position: sticky;
    top: 0;
    height: 100vh;
  }
  main {
    padding: var(--gw-space-5) var(--gw-space-6) var(--gw-space-6);
    max-width: 1320px;
    width: 100%;
    margin: 0 auto;
  }
  .scrim {
    display: none;
  }
  .not-found {
    padding: var(--gw-space-6) 0;
  }
  .read-only-banner {
    padding: 10px 14px;
    margin-bottom: var(--gw-space-4, 16px);
    font-size: var(--gw-text-sm);
    color: var(--gw-text-muted);
  }
  @media (max-width: 900px) {
    .layout {
      grid-template-columns: minmax(0, 1fr);
    }
    .side {
      display: contents;
    }
    gw-sidebar {
      position: fixed;
      left: 0;
      top: 0;
      bottom: 0;
      width: min(280px, 84vw);
      z-index: 40;
      transform: translateX(-100%);
      transition: transform 180ms ease;
      box-shadow: var(--gw-shadow-lg);
    }
    .menu-open gw-sidebar {
      transform: none;
    }
    .menu-open .scrim {
      display: block;
      position: fixed;
      inset: 0;
      background: var(--gw-overlay);
      z-index: 30;
    }
    main {
      padding: var(--gw-space-4) var(--gw-space-3) var(--gw-space-6);
    }
  }
`;
