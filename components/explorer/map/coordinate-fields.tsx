"use client";
// The two selects that say which fields hold the coordinates ("Latitude field", "Longitude
// field"; `lat` and `lon` in the URL), over the resource's number fields.
import { useT } from "@/components/i18n/i18n-provider";
import type { DatastoreField } from "@/lib/api-client";

function FieldSelect({
  id,
  label,
  value,
  fields,
  onChange,
}: {
  id: string;
  label: string;
  value: string | null;
  fields: DatastoreField[];
  onChange: (field: string | null) => void;
}) {
  const t = useT();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        className="rounded-md border bg-white px-2 py-1.5 text-sm dark:bg-zinc-900"
      >
        {value === null && <option value="">{t("map.chooseField")}</option>}
        {fields.map((f) => (
          <option key={f.id} value={f.id}>
            {f.id}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CoordinateFields({
  fields,
  lat,
  lon,
  onChange,
}: {
  /** The number fields to choose from. */
  fields: DatastoreField[];
  lat: string | null;
  lon: string | null;
  onChange: (patch: { lat?: string | null; lon?: string | null }) => void;
}) {
  const t = useT();
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <FieldSelect id="map-lat" label={t("map.latField")} value={lat} fields={fields} onChange={(v) => onChange({ lat: v })} />
      <FieldSelect id="map-lon" label={t("map.lonField")} value={lon} fields={fields} onChange={(v) => onChange({ lon: v })} />
    </div>
  );
}
