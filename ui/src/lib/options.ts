import type { SegmentOption } from "../components/gw_segmented.ts";

/** Reporting periods offered by the analytics-style screens. */
export const DAY_PERIODS: readonly SegmentOption[] = [
  { value: "1", label: "Today" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "365 days" },
];
