import { css, html, type TemplateResult } from "lit";
import { ifDefined } from "lit/directives/if-defined.js";

/** How full a bar reads: fine, close to its limit, or at it. */
export type MeterLevel = "ok" | "warn" | "danger";

/** The track and fill every bar draws (`--gw-meter-height` sets its thickness); the host adds its legend. */
export const meterBarStyles = css`
  .track {
    height: var(--gw-meter-height, 8px);
    border-radius: 999px;
    background: var(--gw-surface-3);
    overflow: hidden;
  }
  .fill {
    height: 100%;
    border-radius: inherit;
    background: var(--gw-ok);
    transition: width 300ms ease;
  }
  .fill.warn {
    background: var(--gw-warn);
  }
  .fill.danger {
    background: var(--gw-danger);
  }
`;

/** What assistive technology hears of a bar: its value out of its maximum, and a label when useful. */
export interface MeterAria {
  readonly label?: string;
  readonly max: number;
  readonly now: number;
}

/** One bar, `percent` (clamped to 0–100) filled and coloured by `level`; spend meters and quota bars share it. */
export function meterBar(percent: number, level: MeterLevel, aria: MeterAria): TemplateResult {
  const width = Math.max(0, Math.min(100, percent));
  return html`
    <div class="track" role="meter" aria-label=${ifDefined(aria.label)} aria-valuemin="0" aria-valuemax=${aria
      .max}
      aria-valuenow=${aria.now}>
      <div class="fill ${level}" style="width:${width}%"></div>
    </div>
  `;
}
