import { css, type CSSResultGroup } from "lit";
import { controlStyles } from "./controls.ts";
import { tableStyles } from "./tables.ts";

/** Base styles every gw- element adopts: type, layout helpers, cards, tables, badges, plus the controls. */
const baseStyles = css`
  :host {
    font-family: var(--gw-font);
    color: var(--gw-text);
    font-size: var(--gw-text-md);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1,
  h2,
  h3,
  h4,
  p {
    margin: 0;
  }
  h2 {
    font-size: var(--gw-text-lg);
    font-weight: 600;
    letter-spacing: -0.01em;
  }
  h3 {
    font-size: var(--gw-text-md);
    font-weight: 600;
  }
  a {
    color: var(--gw-accent);
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
  code,
  .mono {
    font-family: var(--gw-mono);
    font-size: 0.92em;
  }
  code {
    background: var(--gw-surface-2);
    border: 1px solid var(--gw-border);
    border-radius: 5px;
    padding: 1px 5px;
  }
  .muted {
    color: var(--gw-text-muted);
  }
  .faint {
    color: var(--gw-text-faint);
  }
  .small {
    font-size: var(--gw-text-sm);
  }
  .xs {
    font-size: var(--gw-text-xs);
  }
  .num {
    font-variant-numeric: tabular-nums;
  }
  .right {
    text-align: right;
  }
  .nowrap {
    white-space: nowrap;
  }
  .truncate {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .stack {
    display: flex;
    flex-direction: column;
    gap: var(--gw-space-4);
  }
  .stack-sm {
    display: flex;
    flex-direction: column;
    gap: var(--gw-space-2);
  }
  .row {
    display: flex;
    align-items: center;
    gap: var(--gw-space-2);
    flex-wrap: wrap;
  }
  .row-between {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--gw-space-3);
    flex-wrap: wrap;
  }
  .spacer {
    flex: 1;
  }
  .grid {
    display: grid;
    gap: var(--gw-space-4);
  }
  .grid-stats {
    display: grid;
    gap: var(--gw-space-4);
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 200px), 1fr));
  }
  .grid-2 {
    display: grid;
    gap: var(--gw-space-4);
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 380px), 1fr));
  }
  /* A plaintext-credential warning (exports). */
  .warn-box {
    padding: 10px 12px;
    border-radius: var(--gw-radius-sm);
    background: var(--gw-warn-soft);
    color: var(--gw-warn);
    font-size: var(--gw-text-sm);
  }
  .grid-cards {
    display: grid;
    gap: var(--gw-space-4);
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr));
  }

  .card {
    background: var(--gw-surface);
    border: 1px solid var(--gw-border);
    border-radius: var(--gw-radius);
    box-shadow: var(--gw-shadow-sm);
    min-width: 0;
  }
  .card-body {
    padding: var(--gw-space-4) var(--gw-space-5);
  }
  .card-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--gw-space-3);
    padding: var(--gw-space-3) var(--gw-space-5);
    border-bottom: 1px solid var(--gw-border);
    min-height: 52px;
    flex-wrap: wrap;
  }
  .card-head h2,
  .card-head h3 {
    font-size: var(--gw-text-md);
    font-weight: 600;
  }
  .card-foot {
    padding: var(--gw-space-3) var(--gw-space-5);
    border-top: 1px solid var(--gw-border);
  }

  .badge {
    display: inline-flex;
    align-items: center;
    gap: 5px;
    height: 22px;
    padding: 0 8px;
    border-radius: 999px;
    font-size: var(--gw-text-xs);
    font-weight: 600;
    background: var(--gw-surface-3);
    color: var(--gw-text-muted);
    white-space: nowrap;
  }
  .badge.ok {
    background: var(--gw-ok-soft);
    color: var(--gw-ok);
  }
  .badge.warn {
    background: var(--gw-warn-soft);
    color: var(--gw-warn);
  }
  .badge.danger {
    background: var(--gw-danger-soft);
    color: var(--gw-danger);
  }
  .badge.info {
    background: var(--gw-info-soft);
    color: var(--gw-info);
  }
  .badge.accent {
    background: var(--gw-accent-soft);
    color: var(--gw-accent-soft-text);
  }
  .dot {
    width: 8px;
    height: 8px;
    border-radius: 50%;
    background: currentColor;
    display: inline-block;
    flex: none;
  }

  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
  }
  .chip {
    font-family: var(--gw-mono);
    font-size: var(--gw-text-xs);
    padding: 2px 8px;
    border-radius: 6px;
    background: var(--gw-surface-2);
    border: 1px solid var(--gw-border);
    color: var(--gw-text);
    white-space: nowrap;
  }

  .error-text {
    color: var(--gw-danger);
    font-size: var(--gw-text-sm);
  }
  .form-grid {
    display: grid;
    gap: var(--gw-space-4);
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr));
  }
  .form-grid .full {
    grid-column: 1 / -1;
  }
  .form-error {
    padding: 10px 12px;
    border-radius: var(--gw-radius-sm);
    background: var(--gw-danger-soft);
    color: var(--gw-danger);
    font-size: var(--gw-text-sm);
    border: 1px solid color-mix(in srgb, var(--gw-danger) 30%, transparent);
  }
  .skeleton {
    background: linear-gradient(90deg, var(--gw-surface-2), var(--gw-surface-3), var(--gw-surface-2));
    background-size: 200% 100%;
    animation: shimmer 1.2s infinite;
    border-radius: var(--gw-radius-sm);
  }
  @keyframes shimmer {
    from {
      background-position: 200% 0;
    }
    to {
      background-position: -200% 0;
    }
  }
  /* A two-column list of facts: names muted on the left, values wrapping on the right. */
  dl.facts {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 6px 16px;
    font-size: var(--gw-text-sm);
    margin: 0;
  }
  dl.facts dt {
    color: var(--gw-text-muted);
  }
  dl.facts dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton {
      animation: none;
    }
  }
  @media (max-width: 640px) {
    .grid-stats {
      grid-template-columns: repeat(2, minmax(0, 1fr));
      gap: var(--gw-space-3);
    }
    .card-body {
      padding: var(--gw-space-3) var(--gw-space-4);
    }
    .card-head {
      padding: var(--gw-space-3) var(--gw-space-4);
    }
  }
`;

/** Everything an element adopts first in its `styles` (base styles, then buttons and inputs, then tables). */
export const sharedStyles: CSSResultGroup = [baseStyles, controlStyles, tableStyles];
