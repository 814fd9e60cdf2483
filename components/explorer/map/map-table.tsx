"use client";
// The map as a table, for screen readers and keyboards: each point (or cell) with a button that
// does what clicking it on the map does. Rows are made only once the details are opened.
import { useT } from "@/components/i18n/i18n-provider";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { formatCount } from "../format";
import type { Picked } from "./map-plot";
import type { MapLayer } from "./use-map-data";

const coordinate = (x: number) => Number(x.toFixed(6)).toString();

function range(lo: number, size: number): string {
  const digits = Math.max(0, -Math.floor(Math.log10(size)));
  return `${lo.toFixed(digits)} to ${(lo + size).toFixed(digits)}`;
}

export function MapTable({ layer, onPick }: { layer: MapLayer; onPick: (picked: Picked) => void }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const cells = layer.kind === "cells";
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)} className="rounded-md border px-3 py-2 text-sm">
      <summary className="font-medium">{cells ? t("map.table.cells") : t("map.table.points")}</summary>
      {open && (
        <div className="mt-2 max-h-96 overflow-auto">
          <table className="w-full border-collapse text-left tabular-nums">
            <caption className="sr-only">{cells ? t("map.table.cellsCaption") : t("map.table.pointsCaption")}</caption>
            <thead className="sticky top-0 bg-white dark:bg-zinc-950">
              <tr className="border-b">
                {!cells && <th scope="col" className="py-1 pr-3 font-medium">{t("save.name")}</th>}
                <th scope="col" className="py-1 pr-3 font-medium">{t("map.latitude")}</th>
                <th scope="col" className="py-1 pr-3 font-medium">{t("map.longitude")}</th>
                {cells && (
                  <th scope="col" className="py-1 pr-3 text-right font-medium">
                    {layer.partial ? t("map.table.rowsInSample") : t("summary.rows")}
                  </th>
                )}
                <th scope="col" className="py-1 font-medium"><span className="sr-only">{t("map.table.action")}</span></th>
              </tr>
            </thead>
            <tbody>
              {layer.kind === "points"
                ? layer.points.map((p) => (
                    <tr key={p.id} className="border-b last:border-0">
                      <td className="py-1 pr-3">{p.label ?? t("map.table.record", { id: String(p.id) })}</td>
                      <td className="py-1 pr-3">{coordinate(p.lat)}</td>
                      <td className="py-1 pr-3">{coordinate(p.lon)}</td>
                      <td className="py-1">
                        <Button variant="ghost" onClick={() => onPick({ kind: "point", point: p })}>
                          {t("map.table.open", { id: String(p.id) })}
                        </Button>
                      </td>
                    </tr>
                  ))
                : [...layer.cells]
                    .sort((a, b) => b.count - a.count || a.lat - b.lat || a.lon - b.lon)
                    .map((c) => {
                      const lat = range(c.lat, layer.size);
                      const lon = range(c.lon, layer.size);
                      const opens = c.count === 1 && !layer.partial;
                      return (
                        <tr key={`${c.lat},${c.lon}`} className="border-b last:border-0">
                          <td className="py-1 pr-3">{lat}</td>
                          <td className="py-1 pr-3">{lon}</td>
                          <td className="py-1 pr-3 text-right">{formatCount(c.count)}</td>
                          <td className="py-1">
                            <Button
                              variant="ghost"
                              onClick={() => onPick({ kind: "cell", cell: c })}
                              aria-label={opens ? undefined : t("map.table.zoomTo", { lat, lon })}
                            >
                              {opens ? t("map.table.open", { id: String(c.id) }) : t("map.table.zoomIn")}
                            </Button>
                          </td>
                        </tr>
                      );
                    })}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
