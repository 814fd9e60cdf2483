"use client";
// The request behind the shown view, for programs: a GET URL (absolute, opens in a browser), the
// POST body and a curl command with a token placeholder. Each tab says which call it shows.
import { useState, useSyncExternalStore } from "react";
import type { MessageKey } from "@/lib/i18n";
import { actionCurl, actionGetUrl, actionPostBody, searchCall, type ActionCall, type SearchRequest } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

function Block({ title, text, copyLabel, mono = true }: { title: string; text: string; copyLabel: string; mono?: boolean }) {
  return (
    <div>
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium">{title}</h3>
        <CopyButton text={text} label={copyLabel} />
      </div>
      <pre
        tabIndex={0}
        className={`max-h-60 overflow-auto rounded-md border bg-zinc-50 p-2 text-xs break-all whitespace-pre-wrap dark:bg-zinc-900 ${mono ? "font-mono" : ""}`}
      >
        {text}
      </pre>
    </div>
  );
}

const noSubscribe = () => () => {};

/** A call and what its response holds, ending the sentence "These requests return …" (a catalogue key). */
export type ApiView = { call: ActionCall; returns: MessageKey & `api.returns.${string}` };

/** The Table tab's: the page of records it shows. */
export function tableApi(request: SearchRequest): ApiView {
  return { call: searchCall(request), returns: "api.returns.table" };
}

/** A tab with no request of its own yet (a chart without its fields, a map without
 *  coordinates): the count of matching rows it shows beside the search. */
export function countApi(request: SearchRequest): ApiView {
  return { call: searchCall(request), returns: "api.returns.count" };
}

export function ApiPanel({ api, isPrivate }: { api: ApiView; isPrivate: boolean }) {
  const { call, returns } = api;
  const [open, setOpen] = useState(false);
  const t = useT();
  const origin = useSyncExternalStore(noSubscribe, () => window.location.origin, () => "");
  return (
    <section aria-labelledby="api-heading" className="rounded-lg border">
      <h2 id="api-heading" className="m-0">
        <Button
          variant="ghost"
          aria-expanded={open}
          aria-controls="api-body"
          onClick={() => setOpen((o) => !o)}
          className="w-full justify-start rounded-lg px-3 py-2 text-base"
        >
          <span aria-hidden>{open ? "▾" : "▸"}</span> {t("api.toggle")}
        </Button>
      </h2>
      <div id="api-body" hidden={!open} className="space-y-4 border-t p-3">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {t("api.intro", { returns: t(returns) })}
          {isPrivate && t("api.private")}
        </p>
        <Block title={t("api.getUrl")} text={actionGetUrl(origin, call)} copyLabel={t("api.copyGetUrl")} />
        <Block title={t("api.postBody", { action: call.action })} text={actionPostBody(call)} copyLabel={t("api.copyPostBody")} />
        <Block title="curl" text={actionCurl(origin, call)} copyLabel={t("api.copyCurl")} />
      </div>
    </section>
  );
}
