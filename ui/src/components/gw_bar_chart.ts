import { css, html, LitElement, svg } from "lit";
import { sharedStyles } from "../styles/shared.ts";

/** One bar. */
export interface ChartPoint {
  readonly label: string;
  readonly value: number;
}

/** A bar chart drawn as inline SVG at the element's measured width; hover shows the exact value. */
export class GwBarChart extends LitElement {
  static override properties = {
    points: { attribute: false },
    format: { attribute: false },
    height: { type: Number },
    compact: { type: Boolean },
    label: {},
    width: { state: true },
    hover: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        position: relative;
      }
      svg {
        display: block;
        overflow: visible;
      }
      .grid {
        stroke: var(--gw-border);
        stroke-width: 1;
      }
      .axis {
        fill: var(--gw-text-faint);
        font-size: 11px;
        font-family: var(--gw-font);
      }
      .bar {
        fill: var(--gw-chart-1);
        transition: opacity 120ms;
      }
      .bar.dim {
        opacity: 0.45;
      }
      .hit {
        fill: transparent;
      }
      .tip {
        position: absolute;
        top: 0;
        transform: translateX(-50%);
        pointer-events: none;
        white-space: nowrap;
        background: var(--gw-text);
        color: var(--gw-surface);
        font-size: var(--gw-text-xs);
        padding: 4px 8px;
        border-radius: 6px;
        font-variant-numeric: tabular-nums;
        box-shadow: var(--gw-shadow);
      }
      .empty {
        display: grid;
        place-items: center;
        color: var(--gw-text-faint);
        font-size: var(--gw-text-sm);
      }
    `,
  ];
  declare points: readonly ChartPoint[];
  declare format: (value: number) => string;
  declare height: number;
  declare compact: boolean;
  declare label: string;
  declare width: number;
  declare hover: number;
  private observer: ResizeObserver;

  constructor() {
    super();
    this.points = [];
    this.format = (v) => String(Math.round(v * 100) / 100);
    this.height = 200;
    this.compact = false;
    this.label = "Chart";
    this.width = 0;
    this.hover = -1;
    this.observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (width !== this.width) this.width = width;
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.observer.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer.disconnect();
  }

  override render() {
    const { points, width, height } = this;
    if (points.length === 0 || points.every((p) => p.value === 0) && !this.compact) {
      return html`<div class="empty" style="height:${height}px">No data for this period yet</div>`;
    }
    if (width === 0) return html`<div style="height:${height}px"></div>`;
    const left = this.compact ? 0 : 52;
    const bottom = this.compact ? 0 : 22;
    const top = this.compact ? 2 : 10;
    const plotW = Math.max(10, width - left);
    const plotH = height - bottom - top;
    const max = niceMax(Math.max(...points.map((p) => p.value), 0));
    const slot = plotW / points.length;
    const barW = Math.max(1, Math.min(48, slot * (points.length > 60 ? 0.8 : 0.68)));
    const ticks = this.compact ? [] : [0, 0.25, 0.5, 0.75, 1].map((t) => t * max);
    const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(plotW / 64))));
    const tip = this.hover >= 0 ? points[this.hover] : undefined;
    return html`
      <svg width=${width} height=${height} role="img" aria-label=${this.label}
        @mouseleave=${() => (this.hover = -1)}>
        ${ticks.map((t) => {
          const y = top + plotH - (t / max) * plotH;
          return svg`
            <line class="grid" x1=${left} x2=${width} y1=${y} y2=${y}></line>
            <text class="axis" x=${left - 8} y=${y + 4} text-anchor="end">${this.format(t)}</text>
          `;
        })}
        ${points.map((p, i) => {
          const h = max === 0 ? 0 : Math.max(p.value > 0 ? 2 : 0, (p.value / max) * plotH);
          const x = left + i * slot + (slot - barW) / 2;
          return svg`
            <rect class="bar ${this.hover >= 0 && this.hover !== i ? "dim" : ""}" x=${x} y=${top + plotH - h}
              width=${barW} height=${h} rx=${Math.min(3, barW / 3)}></rect>
                      <rect class="hit" x=${left + i * slot} y=${top} width=${slot} height=${plotH}
              @mouseenter=${() => (this.hover = i)}></rect>
                      ${!this.compact && i % labelEvery === 0
                        ? svg`<text class="axis" x=${left + i * slot + slot / 2} y=${
                          height - 4
                        } text-anchor="middle">${p.label}</text>`
                        : null}
          `;
        })}
      </svg>
      ${tip
        ? html`<div class="tip" style="left:${
          Math.min(Math.max(left + this.hover * slot + slot / 2, 60), width - 60)
        }px">${tip.label}: <b>${this.format(tip.value)}</b></div>`
        : null}
    `;
  }
}

/** Rounds a maximum up to 1, 2, 2.5 or 5 times a power of ten so grid lines land on tidy values. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

customElements.define("gw-bar-chart", GwBarChart);

declare global {
  interface HTMLElementTagNameMap {
    "gw-bar-chart": GwBarChart;
  }
}
