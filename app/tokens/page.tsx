import type { Metadata } from "next";
import { PageTitle } from "@/components/i18n/page-title";
import { TokensPage } from "@/components/tokens/tokens-page";

export const metadata: Metadata = { title: "Tokens · Datastore Explorer" };

export default function Tokens() {
  // the token lives in the browser's storage: the page is prerendered and fills in there
  return (
    <>
      <PageTitle k="tokens.title" />
      <TokensPage />
    </>
  );
}
