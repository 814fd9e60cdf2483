"use client";
// Observable Plot draws into a container after React renders it (Plot makes DOM, so only in the
// browser), again when the data or the container's width changes. The drawn SVG is handed to
// `svgRef` for the downloads.
import * as Plot from "@observablehq/plot";
import { useEffect, useRef, useState, type RefObject } from "react";
import type { DatastoreField } from "@/lib/api-client";
import type { ResolvedChart } from "./chart-fields";
import type { ChartData } from "./chart-numbers";
import { plotOptions } from "./plot-options";
import { useT } from "@/components/i18n/i18n-provider";

type PickedPoint = { _id?: unknown };

export function PlotChart({
  chart,
  data,
  fields,
  label,
  description,
  svgRef,
  onOpenRecord,
}: {
  chart: ResolvedChart;
  data: ChartData;
  fields: DatastoreField[];
  label: string;
  description: string;
  svgRef: RefObject<SVGSVGElement | null>;
  /** A click on a scatter plot's dot opens its row. */
  onOpenRecord: (id: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const t = useT();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const open = useRef(onOpenRecord);
  useEffect(() => {
    open.current = onOpenRecord;
  }, [onOpenRecord]);

  useEffect(() => {
    const el = box.current;
    if (!el || width <= 0) return;
    const drawn = Plot.plot({ ...plotOptions(chart, data, fields, width, t), ariaLabel: label, ariaDescription: description });
    const svg = drawn instanceof SVGSVGElement ? drawn : drawn.querySelector("svg");
    svg?.setAttribute("role", "img");
    const pick = () => {
      const id = (drawn as unknown as { value?: PickedPoint }).value?._id;
      if (typeof id === "number") open.current(id);
    };
    if (data.kind === "scatter") drawn.addEventListener("click", pick);
    el.replaceChildren(drawn);
    svgRef.current = svg;
    return () => {
      drawn.removeEventListener("click", pick);
      drawn.remove();
      if (svgRef.current === svg) svgRef.current = null;
    };
  }, [chart, data, fields, width, label, description, svgRef, t]);

  return <div ref={box} className="w-full min-h-24 text-zinc-800 dark:text-zinc-200" />;
}
