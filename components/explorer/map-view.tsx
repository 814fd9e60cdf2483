"use client";
// The Map tab (placeholder until built).
import type { ViewProps } from "./view-props";

export function MapView(props: ViewProps) {
  return <p className="text-sm">Map of {props.title}</p>;
}
