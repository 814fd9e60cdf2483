"use client";
// The Chart tab (placeholder until built).
import type { ViewProps } from "./view-props";

export function ChartView(props: ViewProps) {
  return <p className="text-sm">Chart of {props.title}</p>;
}
