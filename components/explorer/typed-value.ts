// A value typed into the filter's value box, converted to what the field holds (the API would
// reject "abc" for a number with a 409; we say so before sending).
import { english, type Translate } from "@/lib/i18n";
import type { Scalar } from "@/lib/view-state";
import { describeType, isIntegerType, isNumericType } from "./format";

export type Parsed = { ok: true; value: Scalar } | { ok: false; message: string };

export function parseTypedValue(text: string, field: string, type: string, t: Translate = english): Parsed {
  const typed = text.trim();
  if (!typed) return { ok: false, message: t("typed.first") };
  if (isNumericType(type)) {
    const pattern = isIntegerType(type) ? /^[-+]?\d+$/ : /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
    if (!pattern.test(typed)) return { ok: false, message: t("typed.notType", { text: typed, type: describeType(type, t), field }) };
    return { ok: true, value: Number(typed) };
  }
  if (type === "bool") {
    if (/^(true|t|yes|y|1)$/i.test(typed)) return { ok: true, value: true };
    if (/^(false|f|no|n|0)$/i.test(typed)) return { ok: true, value: false };
    return { ok: false, message: t("typed.bool", { field }) };
  }
  return { ok: true, value: typed };
}
