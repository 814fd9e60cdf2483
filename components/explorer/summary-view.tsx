"use client";
// The Summary tab (placeholder until built).
import type { ViewProps } from "./view-props";

export function SummaryView(props: ViewProps) {
  return <p className="text-sm">Summary of {props.title}</p>;
}
