// A value typed into the filter's value box, converted to what the field holds (the API would
// reject "abc" for a number with a 409; we say so before sending).
import type { Scalar } from "@/lib/view-state";
import { describeType, isIntegerType, isNumericType } from "./format";

export type Parsed = { ok: true; value: Scalar } | { ok: false; message: string };

export function parseTypedValue(text: string, field: string, type: string): Parsed {
  const t = text.trim();
  if (!t) return { ok: false, message: "Type a value first." };
  if (isNumericType(type)) {
    const pattern = isIntegerType(type) ? /^[-+]?\d+$/ : /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
    if (!pattern.test(t)) return { ok: false, message: `“${t}” is not a ${describeType(type)}, and ${field} holds ${describeType(type)}s.` };
    return { ok: true, value: Number(t) };
  }
  if (type === "bool") {
    if (/^(true|t|yes|y|1)$/i.test(t)) return { ok: true, value: true };
    if (/^(false|f|no|n|0)$/i.test(t)) return { ok: true, value: false };
    return { ok: false, message: `${field} holds true or false.` };
  }
  return { ok: true, value: t };
}
