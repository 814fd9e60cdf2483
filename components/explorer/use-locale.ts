"use client";
// The reader's locale, for numbers and dates in the table, the record view and the summary: the
// interface's own (components/i18n), so words and figures agree. Server rendering and hydration
// use en-US; the browser's locale follows at once, so a server-rendered value never mismatches.
export { useLocale } from "@/components/i18n/i18n-provider";
export { SERVER_LOCALE } from "@/components/i18n/language-store";
